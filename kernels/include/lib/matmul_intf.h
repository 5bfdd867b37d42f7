#pragma once
// lib/matmul_intf.h: the header kernels include for the high-level Matmul (AscendC::Matmul,
// REGIST_MATMUL_OBJ). Implementation in adv_api/matmul/.
//
// On the NPU a kernel that does not define ASCENDC_CUBE_ONLY before including this header runs its
// Matmul as a client on the vector cores (AIV) served by the cube core (AIC) of its group:
// REGIST_MATMUL_OBJ makes the AIC serve the AIVs' requests and return. Canopy's cores of a group
// share memory, so the AIV computes its Matmul itself; the AIC returns from REGIST_MATMUL_OBJ as on
// the NPU. With ASCENDC_CUBE_ONLY the kernel runs on the AIC and the Matmul is computed there.
#include <cstdint>
#include <memory>

#include "adv_api/matmul/matmul.h"
#include "basic_api/kernel_basic_intf.h"

// The kernel parameter that carries the system workspace (a marker for CANN's compiler).
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

namespace canopy::kernel::matmul {

// The system workspace of the library APIs (RESERVED_WORKSPACE bytes, what the host reserves
// with GetLibApiWorkSpaceSize). Canopy's Matmul exchanges nothing through it, so each worker
// thread has its own, allocated on first use and never touched by Canopy (its pages stay
// uncommitted unless a kernel writes them).
inline __gm__ uint8_t* system_workspace() {
    thread_local std::unique_ptr<uint8_t[]> workspace(new uint8_t[AscendC::RESERVED_WORKSPACE]);
    return workspace.get();
}

}  // namespace canopy::kernel::matmul

__aicore__ inline __gm__ uint8_t* GetSysWorkSpacePtr() { return canopy::kernel::matmul::system_workspace(); }

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto& = MM_CFG, typename...> class MM_POLICY = Impl::Detail::MatmulPolicy>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MM_POLICY>;

// The queue of a matrix the kernel stages in L1 for the Matmul (TPosition::TSCM), fed from `src`.
template <TPosition src, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<src, TPosition::TSCM, depth, mask>;

// REGIST_MATMUL_OBJ(pipe, workspace, obj, tiling, [obj2, tiling2, ...]): Init of each object
// with its tiling and the pipe.
__aicore__ inline void InitCurObj(TPipe*) {}
template <class Obj, class Tiling, class... Rest>
__aicore__ inline void InitCurObj(TPipe* tpipe, Obj& obj, Tiling tiling, Rest&&... rest) {
    obj.SetSubBlockIdx(uint8_t(GetSubBlockIdx()));
    // A null tiling is a constant tiling's (MM_CFG a MatmulApiStaticTiling); Init says otherwise.
    obj.Init(reinterpret_cast<const TCubeTiling*>(tiling), tpipe);
    InitCurObj(tpipe, rest...);
}

}  // namespace AscendC

#ifdef ASCENDC_CUBE_ONLY
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) AscendC::InitCurObj(tpipe, __VA_ARGS__)
#else
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)         \
    if ASCEND_IS_AIC {                                   \
        return;                                          \
    }                                                    \
    AscendC::InitCurObj(tpipe, __VA_ARGS__)
#endif
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ
#define REGIST_CUBE_OBJ REGIST_MATMUL_OBJ
