#pragma once
#include "tensorplay/B/B.h"
