#pragma once
// CANN's path for the whole basic kernel API.
#include "kernel_operator.h"
