#include "tensorplay/A/A.h"
#include "Private.h"
#include "tensorplay/C/C.h"
