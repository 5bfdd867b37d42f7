#pragma once
// Fmod (CANN's adv_api/math/fmod.h): the remainder of src0 / src1 with the sign of src0
// (a - trunc(a / b) * b, exact as C's fmod); half and float, computed in float.
#include <cmath>

#include "adv_api/math/fmod_tiling.h"
#include "adv_api/utils/adv_common.h"

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

namespace canopy_fmod {
template <typename T>
inline void run(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const LocalTensor<uint8_t>* tmp, uint32_t calCount) {
    static_assert(canopy::kernel::adv::is_half_or_float<T>, "Fmod supports half and float");
    canopy::kernel::adv::binary_elementwise(
        "Fmod", "GetFmodMaxMinTmpSize", dst, src0, src1, tmp, canopy::kernel::adv::sizes::fmod_min(sizeof(T)), calCount,
        [](const auto& a, const auto& b) {
            using Scalar = typename std::decay_t<decltype(a)>::Scalar;
            return a.binaryExpr(b, [](Scalar x, Scalar y) { return static_cast<Scalar>(std::fmod(x, y)); });
        });
}
}  // namespace canopy_fmod

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount) {
    canopy_fmod::run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
    canopy_fmod::run(dstTensor, src0Tensor, src1Tensor, nullptr, calCount);
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy_fmod::run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor) {
    canopy_fmod::run(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize());
}

}  // namespace AscendC
