#pragma once
#include "tensorplay/A/A.h"
