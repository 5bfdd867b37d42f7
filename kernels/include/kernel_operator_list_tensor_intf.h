#pragma once
// CANN installs this interface header flat as well (kernel sources include it by its bare name).
#include "basic_api/kernel_operator_list_tensor_intf.h"
