#pragma once
// Power (CANN's adv_api/math/power.h): base^exponent element by element, with the base, the
// exponent or neither a scalar; half and float (computed in float, as pow), int32_t (exact, by
// squaring; a negative exponent gives 0 unless the base is 1 or -1).
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "adv_api/math/power_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
    PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};

}  // namespace AscendC

namespace canopy::adv {

inline int32_t integer_power(int32_t base, int32_t exponent) {
    if (exponent < 0) return base == 1 ? 1 : (base == -1 ? (exponent % 2 == 0 ? 1 : -1) : 0);
    uint32_t result = 1;
    uint32_t factor = static_cast<uint32_t>(base);
    for (uint32_t e = static_cast<uint32_t>(exponent); e != 0; e >>= 1) {
        if (e & 1u) result *= factor;  // wraps modulo 2^32, as the vector unit's multiplies
        factor *= factor;
    }
    return static_cast<int32_t>(result);
}

template <typename T>
inline T power_of(T base, T exponent) {
    if constexpr (std::is_same_v<T, int32_t>) {
        return integer_power(base, exponent);
    } else {
        return static_cast<T>(std::pow(base, exponent));
    }
}

// base and exponent: a tensor (non-null data) or a scalar each.
template <typename T>
inline void power(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>* base, T baseScalar,
                  const AscendC::LocalTensor<T>* exponent, T exponentScalar, const AscendC::LocalTensor<uint8_t>* tmp,
                  uint32_t calCount) {
    static_assert(is_half_or_float<T> || std::is_same_v<T, int32_t>, "Power supports half, float and int32_t");
    AdvancedCall call("Power");
    const T* b = base != nullptr ? call.in("src0Tensor", *base, calCount, "calCount") : nullptr;
    const T* e = exponent != nullptr ? call.in("src1Tensor", *exponent, calCount, "calCount") : nullptr;
    T* d = call.out("dstTensor", dst, calCount, "calCount");
    const uint32_t min_tmp = sizes::power_min(b != nullptr && e != nullptr, std::is_same_v<T, int32_t>, sizeof(T));
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, "GetPowerMaxMinTmpSize");
    } else {
        call.stack(min_tmp, "GetPowerMaxMinTmpSize");
    }
    call.issue();
    using C = compute_t<T>;
    const int64_t n = calCount;
    Column<T> bases = b != nullptr ? Column<T>(in(b, n)) : Column<T>::Constant(n, static_cast<C>(baseScalar));
    Column<T> exponents = e != nullptr ? Column<T>(in(e, n)) : Column<T>::Constant(n, static_cast<C>(exponentScalar));
    out(d, n, Column<T>(bases.binaryExpr(exponents, [](C x, C y) { return power_of<C>(x, y); })));
}

}  // namespace canopy::adv

namespace AscendC {

// tensor ^ tensor
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             uint32_t calCount) {
    canopy::adv::power<T>(dstTensor, &src0Tensor, T(), &src1Tensor, T(), &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, uint32_t calCount) {
    canopy::adv::power<T>(dstTensor, &src0Tensor, T(), &src1Tensor, T(), nullptr, calCount);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy::adv::power<T>(dstTensor, &src0Tensor, T(), &src1Tensor, T(), &sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor) {
    canopy::adv::power<T>(dstTensor, &src0Tensor, T(), &src1Tensor, T(), nullptr, src0Tensor.GetSize());
}
// tensor ^ scalar
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    canopy::adv::power<T>(dstTensor, &src0Tensor, T(), nullptr, src1Scalar, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             uint32_t calCount) {
    canopy::adv::power<T>(dstTensor, &src0Tensor, T(), nullptr, src1Scalar, nullptr, calCount);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy::adv::power<T>(dstTensor, &src0Tensor, T(), nullptr, src1Scalar, &sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar) {
    canopy::adv::power<T>(dstTensor, &src0Tensor, T(), nullptr, src1Scalar, nullptr, src0Tensor.GetSize());
}
// scalar ^ tensor
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    canopy::adv::power<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(), &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             uint32_t calCount) {
    canopy::adv::power<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(), nullptr, calCount);
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy::adv::power<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(), &sharedTmpBuffer, src1Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor) {
    canopy::adv::power<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(), nullptr, src1Tensor.GetSize());
}

}  // namespace AscendC
