#pragma once
// Ascend C's qualifiers as a CPU compiler sees them. On the NPU they select the core type, the
// address space or the hardware pipe an intrinsic runs on; a CPU has one address space and runs a
// block's instructions in order, so they carry no meaning in the compiled code. `__global__`,
// `__cube__` and `__mix__(aic, aiv)` do matter to the kernel compiler: when canopy-launch-rewrite
// parses a source (__CANOPY_LAUNCH_SCAN__) they are attributes clang keeps in its AST, so that it
// finds the kernels, their cores and their launches.
// `__inline__` is deliberately not redefined: g++ and clang read it as the GNU spelling of
// `inline`, which is what Ascend C means by it, and redefining a keyword would change the meaning of
// system headers included afterwards.
#ifdef __CANOPY_LAUNCH_SCAN__
#define __global__ __attribute__((global))
#define __cube__ __attribute__((annotate("canopy_cube")))
#define __mix__(aic, aiv) __attribute__((annotate("canopy_mix", aic, aiv)))
#else
#define __global__
#define __cube__
#define __mix__(...)
#endif
#define __aicore__
#define __vector__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __sync_alias__
#define __sync_noalias__
#define __inout_pipe__(pipe)
#define __in_pipe__(pipe)
#define __out_pipe__(pipe)
// bisheng's forced inlining. The attribute lists bisheng reads after it (host and aicore, in
// brackets) are blanked by the kernel compiler before clang reads a file.
#ifndef __forceinline__
#define __forceinline__ inline
#endif
// The 950's register-based vector functions: __simd_vf__ marks a function asc_vf_call launches on
// the vector pipe, __simd_callee__ the functions it calls (reg/vf.h).
#ifdef __CANOPY_LAUNCH_SCAN__
#define __simd_vf__ __attribute__((annotate("canopy_simd_vf")))
#else
#define __simd_vf__
#endif
#define __simd_callee__
// The 950's SIMT functions: __simt_vf__ marks a function asc_vf_call(dim3, ...) runs as SIMT threads,
// __simt_callee__ the functions they call, __launch_bounds__(threads) the most threads a kernel is
// launched with (a register allocation hint of bisheng's).
#define __simt_vf__
#define __simt_callee__
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
// A host function (SIMT sources mark host helpers __host__): one CPU runs host and kernel code.
#ifndef __host__
#define __host__
#endif
