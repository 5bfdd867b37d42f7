#pragma once
// CANN's path for ListTensorDesc / TensorDesc.
#include "canopy/kernel/ascendc/list_tensor.h"
