// Kernels of kernel_mix_test. The kernel compiler registers those reaching CrossCoreWaitFlag
// cooperative (every core of a launch runs at once) and the __mix__ and __cube__ ones with their cores.
#include <atomic>

#include "kernel_operator.h"
#include "launch_result.h"
#include "mix_kernels.h"

namespace {

__aicore__ inline void record_core(CoreRecord* records, int32_t seen) {
    const auto& block = canopy::kernel::current_block();
    const int64_t per_block = block.cores.per_block();
    const int64_t slot = (ASCEND_IS_AIC ? 0 : block.cores.aic) + AscendC::GetSubBlockIdx();
    CoreRecord& r = records[block_idx * per_block + slot];
    r.core_type = ASCEND_IS_AIC ? 1 : 2;
    r.block_idx = static_cast<int32_t>(AscendC::GetBlockIdx());
    r.block_num = static_cast<int32_t>(AscendC::GetBlockNum());
    r.sub_block = static_cast<int32_t>(AscendC::GetSubBlockIdx());
    r.task_ratio = static_cast<int32_t>(AscendC::GetTaskRatio());
    r.has_ub = block.ub != nullptr && block.ub_bytes > 0;
    r.builtin = static_cast<int32_t>(block_idx);
    r.seen = seen;
}

int32_t load(int32_t* at) { return std::atomic_ref<int32_t>(*at).load(std::memory_order_acquire); }
void store(int32_t* at, int32_t value) { std::atomic_ref<int32_t>(*at).store(value, std::memory_order_release); }

}  // namespace

// Mode 2 both ways: the AIC publishes block + 100 and releases its AIVs; each AIV adds its part
// and the AIC, released by both, reads their sum.
__global__ __mix__(1, 2) void mix_identity(CoreRecord* records, int32_t* values)
{
    int32_t* mine = values + block_idx * 4;
    if ASCEND_IS_AIC {
        store(mine, static_cast<int32_t>(block_idx) + 100);
        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(5);
        AscendC::CrossCoreWaitFlag(6);
        record_core(records, load(mine + 1) + load(mine + 2));
    }
    if ASCEND_IS_AIV {
        AscendC::CrossCoreWaitFlag(5);
        const int32_t seen = load(mine);
        store(mine + 1 + AscendC::GetSubBlockIdx(), seen + 1);
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(6);
        record_core(records, seen);
    }
}

// Mode 0 among all AIVs of the launch, twice with the same flag: after each round every AIV sees
// every other AIV's increment.
__global__ __mix__(1, 2) void mix_all_aiv(CoreRecord* records, int32_t* counter)
{
    if ASCEND_IS_AIV {
        std::atomic_ref<int32_t>(*counter).fetch_add(1);
        AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(0);
        AscendC::CrossCoreWaitFlag(0);
        const int32_t first = load(counter);
        AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(0);
        AscendC::CrossCoreWaitFlag(0);
        std::atomic_ref<int32_t>(*counter).fetch_add(1);
        AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(0);
        AscendC::CrossCoreWaitFlag(0);
        record_core(records, first * 1000 + load(counter));
    }
}

// Mode 1: the two AIVs of each logical core, separately from the other logical cores.
__global__ __mix__(1, 2) void mix_group_aiv(CoreRecord* records, int32_t* counters)
{
    if ASCEND_IS_AIV {
        std::atomic_ref<int32_t>(counters[block_idx]).fetch_add(1);
        AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(3);
        AscendC::CrossCoreWaitFlag(3);
        record_core(records, load(counters + block_idx));
    }
}

__global__ __cube__ void cube_identity(CoreRecord* records)
{
    record_core(records, 0);
}

__global__ __mix__(1, 2) void mix_misuse(int32_t misuse)
{
    if (misuse == 0 && ASCEND_IS_AIV && AscendC::GetBlockIdx() == 3) AscendC::CrossCoreWaitFlag(7);
    if (misuse == 1 && ASCEND_IS_AIC) AscendC::CrossCoreSetFlag<2, PIPE_FIX>(16);
    if (misuse == 2 && ASCEND_IS_AIC) {
        for (int i = 0; i < 16; ++i) AscendC::CrossCoreSetFlag<2, PIPE_FIX>(1);
    }
    if (misuse == 3 && ASCEND_IS_AIC) AscendC::CrossCoreSetFlag<1, PIPE_FIX>(1);
    if (misuse == 4 && ASCEND_IS_AIC) AscendC::CrossCoreSetFlag<3, PIPE_FIX>(1);
    if (misuse == 5 && ASCEND_IS_AIC) AscendC::CrossCoreSetFlag<2, PIPE_S>(1);
    if (misuse == 6 && ASCEND_IS_AIV) {
        if (AscendC::GetBlockIdx() != 2) AscendC::CrossCoreSetFlag<0, PIPE_V>(4);
        AscendC::CrossCoreWaitFlag(4);
    }
}

// Every core builds a UB tensor, as mix kernels do ahead of their ASCEND_IS_AIV branches; the AIVs
// fill theirs and store element 0 at out[GetBlockIdx()]. `aic_use`: 0 the AIC leaves its tensor
// alone, 1 it runs Duplicate on it, 2 GetValue, 3 DataCopy into it.
static __aicore__ void use_ub_on_each_core(const AscendC::LocalTensor<float>& ub, GM_ADDR out, int32_t aic_use)
{
    AscendC::GlobalTensor<float> gm;
    gm.SetGlobalBuffer((__gm__ float*)out, 64);
    if ASCEND_IS_AIV {
        AscendC::Duplicate(ub, float(AscendC::GetBlockIdx() + 1), 64);
        AscendC::PipeBarrier<PIPE_ALL>();
        gm.SetValue(AscendC::GetBlockIdx(), ub.GetValue(0));
        return;
    }
    if (aic_use == 1) AscendC::Duplicate(ub, 1.0f, 64);
    if (aic_use == 2) gm.SetValue(63, ub.GetValue(0));
    if (aic_use == 3) AscendC::DataCopy(ub, gm, 64);
}

__global__ __mix__(1, 2) void mix_static_ub(GM_ADDR out, int32_t aic_use)
{
    use_ub_on_each_core(AscendC::LocalTensor<float>(AscendC::TPosition::VECCALC, 0, 64), out, aic_use);
}

// The same with the UB tensor carved by a TPipe on both cores, as catlass's resources do: the AIC's
// buffer has no memory behind it.
__global__ __mix__(1, 2) void mix_carved_ub(GM_ADDR out, int32_t aic_use)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 64 * sizeof(float));
    use_ub_on_each_core(buffer.Get<float>(), out, aic_use);
}

__global__ void vector_cross_core()
{
    AscendC::CrossCoreSetFlag<0, PIPE_V>(0);
}

uint32_t launch_mix_identity(uint32_t blocks, void* stream, CoreRecord* records, int32_t* values)
{
    clear_launch_error();
    mix_identity<<<blocks, 0, stream>>>(records, values);
    return launch_result();
}
uint32_t launch_mix_all_aiv(uint32_t blocks, void* stream, CoreRecord* records, int32_t* counter)
{
    clear_launch_error();
    mix_all_aiv<<<blocks, 0, stream>>>(records, counter);
    return launch_result();
}
uint32_t launch_mix_group_aiv(uint32_t blocks, void* stream, CoreRecord* records, int32_t* counters)
{
    clear_launch_error();
    mix_group_aiv<<<blocks, 0, stream>>>(records, counters);
    return launch_result();
}
uint32_t launch_cube_identity(uint32_t blocks, void* stream, CoreRecord* records)
{
    clear_launch_error();
    cube_identity<<<blocks, 0, stream>>>(records);
    return launch_result();
}
uint32_t launch_mix_misuse(uint32_t blocks, void* stream, int32_t misuse)
{
    clear_launch_error();
    mix_misuse<<<blocks, 0, stream>>>(misuse);
    return launch_result();
}
uint32_t launch_mix_static_ub(uint32_t blocks, void* stream, float* out, int32_t aic_use)
{
    clear_launch_error();
    mix_static_ub<<<blocks, 0, stream>>>(reinterpret_cast<GM_ADDR>(out), aic_use);
    return launch_result();
}
uint32_t launch_mix_carved_ub(uint32_t blocks, void* stream, float* out, int32_t aic_use)
{
    clear_launch_error();
    mix_carved_ub<<<blocks, 0, stream>>>(reinterpret_cast<GM_ADDR>(out), aic_use);
    return launch_result();
}
uint32_t launch_vector_cross_core(uint32_t blocks, void* stream)
{
    clear_launch_error();
    vector_cross_core<<<blocks, 0, stream>>>();
    return launch_result();
}
