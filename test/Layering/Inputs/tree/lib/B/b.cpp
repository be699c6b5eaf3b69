#include "tensorplay/B/B.h"
#include "tensorplay/A/A.h"
