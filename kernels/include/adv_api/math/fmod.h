#pragma once
// Fmod (CANN's adv_api/math/fmod.h): the remainder of src0 / src1 with the sign of src0
// (a - trunc(a / b) * b, exact as C's fmod); half and float, computed in float.
#include <cmath>

#include "adv_api/math/fmod_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo {
    NORMAL = 0,
    ITERATION_COMPENSATION = 1,
};
struct FmodConfig {
    FmodAlgo algo = FmodAlgo::NORMAL;
    uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};

}  // namespace AscendC

namespace canopy::adv {
template <typename T>
inline void fmod_run(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                     const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Fmod supports half and float");
    canopy::adv::binary_elementwise("Fmod", "GetFmodMaxMinTmpSize", dst, src0, src1, tmp,
                                    canopy::adv::live_nodes::min_bytes(canopy::adv::live_nodes::fmod, sizeof(T)),
                                    calCount, [](const auto& a, const auto& b) {
                                        using Scalar = typename std::decay_t<decltype(a)>::Scalar;
                                        return a.binaryExpr(
                                            b, [](Scalar x, Scalar y) { return static_cast<Scalar>(std::fmod(x, y)); });
                                    });
}
}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount) {
    canopy::adv::fmod_run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
    canopy::adv::fmod_run(dstTensor, src0Tensor, src1Tensor, nullptr, calCount);
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy::adv::fmod_run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor) {
    canopy::adv::fmod_run(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize());
}

}  // namespace AscendC
