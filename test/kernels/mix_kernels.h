#pragma once
// Kernels of kernel_mix_test (mix_kernels.cpp): __mix__ and __cube__ kernels and the cross-core
// flags, launched with <<<>>> by the functions below.
#include <cstdint>

// What one core of a launch saw of itself, at GM slot block * cores_per_block + slot.
struct CoreRecord {
    int32_t core_type;   // 1 AIC, 2 AIV
    int32_t block_idx;   // GetBlockIdx()
    int32_t block_num;   // GetBlockNum()
    int32_t sub_block;   // GetSubBlockIdx()
    int32_t task_ratio;  // GetTaskRatio()
    int32_t has_ub;      // the core has a Unified Buffer
    int32_t builtin;     // the block_idx builtin
    int32_t seen;        // what the core read after its wait (per kernel)
};

uint32_t launch_mix_identity(uint32_t blocks, void* stream, CoreRecord* records, int32_t* values);
uint32_t launch_mix_all_aiv(uint32_t blocks, void* stream, CoreRecord* records, int32_t* counter);
uint32_t launch_mix_group_aiv(uint32_t blocks, void* stream, CoreRecord* records, int32_t* counters);
uint32_t launch_cube_identity(uint32_t blocks, void* stream, CoreRecord* records);
// misuse: 0 a wait nobody sets, 1 flag id 16, 2 sixteen sets nobody waits for, 3 mode 1 on the
// AIC, 4 mode 3, 5 PIPE_S, 6 every AIV waits for a mode 0 round one AIV skips.
uint32_t launch_mix_misuse(uint32_t blocks, void* stream, int32_t misuse);
// Every core builds a UB LocalTensor; the AIVs store their fill at out[GetBlockIdx()]. aic_use: 0 the
// AIC leaves its tensor alone, 1 Duplicate, 2 GetValue, 3 DataCopy on it (each a misuse).
uint32_t launch_mix_static_ub(uint32_t blocks, void* stream, float* out, int32_t aic_use);
uint32_t launch_mix_carved_ub(uint32_t blocks, void* stream, float* out, int32_t aic_use);
uint32_t launch_vector_cross_core(uint32_t blocks, void* stream);
