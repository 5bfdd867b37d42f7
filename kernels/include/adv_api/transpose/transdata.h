#pragma once
// TransData (CANN adv_api/transpose/transdata.h) between NCDHW and the A2's fractal formats:
// NCDHW <-> FRACTAL_Z_3D ([D, C1, H, W, N1, N0, C0]) and NCDHW <-> NDC1HWC0 ([N, D, C1, H, W, C0]),
// the shapes taken from the layouts (NCDHW: (N, C, D, H, W); NDC1HWC0: (N, D, C1, H, W, C0);
// FRACTAL_Z_3D: (D, C1, H, W, N1, N0, C0)). In the UB an NCDHW tensor keeps each (n, c, d) plane of
// H*W elements 32-byte aligned (the layout DataCopyPad gives it); the fractal tensors are dense and
// their channels (and, for FRACTAL_Z_3D, batches) past C (N) are zero.
#include "canopy/adv/kernel_common.h"
#include "canopy/kernel/ascendc/layout.h"
#include "canopy/kernel/ascendc/shape_info.h"

namespace AscendC {

template <typename T, typename U>
struct TransDataParams {
    T srcLayout;
    U dstLayout;
};

#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
#endif

}  // namespace AscendC

namespace canopy::adv {

struct Ncdhw {
    int64_t n, c, d, h, w;
};

template <typename T, typename L>
inline Ncdhw ncdhw_of(const L& layout) {
    static_assert(L::rank == 5, "an NCDHW layout has 5 dimensions (N, C, D, H, W)");
    return {layout.template Dim<0>(), layout.template Dim<1>(), layout.template Dim<2>(), layout.template Dim<3>(),
            layout.template Dim<4>()};
}

template <const AscendC::TransDataConfig& config, typename T, typename N, typename F>
inline void transdata_core(const AscendC::LocalTensor<T>& dstTensor, const AscendC::LocalTensor<T>& srcTensor,
                           const AscendC::LocalTensor<uint8_t>* tmp, const N& ncdhw_layout, const F& fractal) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "TransData takes 16- or 32-bit elements");
    using AscendC::DataFormat;
    constexpr DataFormat from = config.srcFormat;
    constexpr DataFormat to = config.dstFormat;
    constexpr bool to_fractal_z = from == DataFormat::NCDHW && to == DataFormat::FRACTAL_Z_3D;
    constexpr bool from_fractal_z = from == DataFormat::FRACTAL_Z_3D && to == DataFormat::NCDHW;
    constexpr bool to_ndc1hwc0 = from == DataFormat::NCDHW && to == DataFormat::NDC1HWC0;
    constexpr bool from_ndc1hwc0 = from == DataFormat::NDC1HWC0 && to == DataFormat::NCDHW;
    static_assert(to_fractal_z || from_fractal_z || to_ndc1hwc0 || from_ndc1hwc0,
                  "TransData converts NCDHW to and from FRACTAL_Z_3D and NDC1HWC0");
    AdvancedCall call("TransData");
    constexpr bool src_is_ncdhw = to_fractal_z || to_ndc1hwc0;
    const Ncdhw shape = ncdhw_of<T>(ncdhw_layout);
    const int64_t hw = shape.h * shape.w;
    const int64_t plane = (hw + block_elems<T> - 1) / block_elems<T> * block_elems<T>;
    const int64_t ncdhw_elements = shape.n * shape.c * shape.d * plane;
    int64_t c0 = 0, c1 = 0, n0 = 1, n1 = 1;
    if constexpr (to_fractal_z || from_fractal_z) {
        static_assert(F::rank == 7, "a FRACTAL_Z_3D layout has 7 dimensions (D, C1, H, W, N1, N0, C0)");
        c1 = fractal.template Dim<1>();
        n1 = fractal.template Dim<4>();
        n0 = fractal.template Dim<5>();
        c0 = fractal.template Dim<6>();
        call.require(fractal.template Dim<0>() == shape.d && fractal.template Dim<2>() == shape.h &&
                         fractal.template Dim<3>() == shape.w,
                     "the FRACTAL_Z_3D layout's D, H, W differ from the NCDHW layout's");
        call.require(n1 * n0 >= shape.n && (n1 - 1) * n0 < shape.n, "N1 ", n1, " x N0 ", n0, " does not cover N ",
                     shape.n, " with the fewest blocks");
    } else {
        static_assert(F::rank == 6, "an NDC1HWC0 layout has 6 dimensions (N, D, C1, H, W, C0)");
        c1 = fractal.template Dim<2>();
        c0 = fractal.template Dim<5>();
        call.require(fractal.template Dim<0>() == shape.n && fractal.template Dim<1>() == shape.d &&
                         fractal.template Dim<3>() == shape.h && fractal.template Dim<4>() == shape.w,
                     "the NDC1HWC0 layout's N, D, H, W differ from the NCDHW layout's");
    }
    call.require(c0 * int64_t(sizeof(T)) == 32, "C0 ", c0, " must be 32 bytes of the element type");
    call.require(c1 * c0 >= shape.c && (c1 - 1) * c0 < shape.c, "C1 ", c1, " x C0 ", c0, " does not cover C ", shape.c,
                 " with the fewest blocks");
    const int64_t fractal_elements = fractal.GetSize();
    const T* src = call.in("srcTensor", srcTensor, uint64_t(src_is_ncdhw ? ncdhw_elements : fractal_elements));
    T* dst = call.out("dstTensor", dstTensor, uint64_t(src_is_ncdhw ? fractal_elements : ncdhw_elements));
    if (tmp != nullptr && tmp->GetSize() > 0) call.tmp("sharedTmpBuffer", *tmp, 0);
    call.issue();
    // The element (n, c, d, hw) in each format.
    auto ncdhw_at = [&](int64_t n, int64_t c, int64_t d, int64_t i) { return ((n * shape.c + c) * shape.d + d) * plane + i; };
    auto fractal_at = [&](int64_t n, int64_t c, int64_t d, int64_t i) -> int64_t {
        const int64_t ci = c / c0, cc = c % c0;
        if constexpr (to_fractal_z || from_fractal_z) {
            const int64_t ni = n / n0, nn = n % n0;
            return ((((d * c1 + ci) * hw + i) * n1 + ni) * n0 + nn) * c0 + cc;
        } else {
            return (((n * shape.d + d) * c1 + ci) * hw + i) * c0 + cc;
        }
    };
    const int64_t n_total = (to_fractal_z || from_fractal_z) ? n1 * n0 : shape.n;
    for (int64_t n = 0; n < n_total; ++n) {
        for (int64_t c = 0; c < c1 * c0; ++c) {
            for (int64_t d = 0; d < shape.d; ++d) {
                for (int64_t i = 0; i < hw; ++i) {
                    const bool real = n < shape.n && c < shape.c;
                    if (src_is_ncdhw) {
                        dst[fractal_at(n, c, d, i)] = real ? src[ncdhw_at(n, c, d, i)] : T(0);
                    } else if (real) {
                        dst[ncdhw_at(n, c, d, i)] = src[fractal_at(n, c, d, i)];
                    }
                }
            }
        }
    }
}

template <const AscendC::TransDataConfig& config, typename T, typename U, typename S>
inline void transdata(const AscendC::LocalTensor<T>& dstTensor, const AscendC::LocalTensor<T>& srcTensor,
                      const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::TransDataParams<U, S>& params) {
    if constexpr (config.srcFormat == AscendC::DataFormat::NCDHW) {
        transdata_core<config, T>(dstTensor, srcTensor, tmp, params.srcLayout, params.dstLayout);
    } else {
        transdata_core<config, T>(dstTensor, srcTensor, tmp, params.dstLayout, params.srcLayout);
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params) {
    canopy::adv::transdata<config, T, U, S>(dstTensor, srcTensor, &sharedTmpBuffer, params);
}
template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const TransDataParams<U, S>& params) {
    canopy::adv::transdata<config, T, U, S>(dstTensor, srcTensor, nullptr, params);
}

}  // namespace AscendC
