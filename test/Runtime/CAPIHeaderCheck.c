/*===- CAPIHeaderCheck.c - The C ABI header compiles as C ----------------===*\
|*                                                                            *|
|* Compiled as C99 with -Wall -Wextra -pedantic: the header must stay valid   *|
|* C. CAPITest.cpp calls tp_rt_c_update_scale_twice.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tensorplay/Runtime/CAPI.h"

#include <stddef.h>

/* Two clean updates with growth interval 2 from a C caller; returns the
 * final scale, or -1 on any error. */
float tp_rt_c_update_scale_twice(float scale);

float tp_rt_c_update_scale_twice(float scale) {
  int32_t tracker = 0;
  float found_inf = 0.0f;
  tp_rt_buffer grads[1];
  float grad = 2.0f;
  int i;
  grads[0].data = &grad;
  grads[0].numel = 1;
  grads[0].dtype = TP_RT_F32;
  grads[0].device = TP_RT_CPU;
  if (tp_rt_unscale_and_check(grads, 1, &scale, &found_inf) != TP_RT_SUCCESS)
    return -1.0f;
  for (i = 0; i < 2; ++i)
    if (tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &found_inf, 1, 2.0, 0.5,
                           2) != TP_RT_SUCCESS)
      return -1.0f;
  if (tp_rt_status_string(TP_RT_SUCCESS) == NULL)
    return -1.0f;
  return scale;
}
