#pragma once
// The Matmul's kernel API (CANN's adv_api/matmul/matmul.h): MatmulImpl and its configuration.
#include "adv_api/matmul/matmul_config.h"
#include "adv_api/matmul/matmul_impl.h"

// The samples' spelling for the kernel API's namespace (matmul::GetBlockIdx()).
namespace matmul = AscendC;
