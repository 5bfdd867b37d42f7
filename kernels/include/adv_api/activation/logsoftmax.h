#pragma once
// LogSoftMax (CANN's adv_api/activation/logsoftmax.h): max = rowmax(x), sum = rowsum(e^(x - max)),
// dst = log10(e^(x - max) / sum). CANN takes the logarithm to base 10 (ln, then times log10(e)),
// and so does this. Statistics one 32-byte block per row; half computed in float.
#include "adv_api/activation/logsoftmax_tiling.h"
#include "adv_api/activation/softmax_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                                  const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's LogSoftMax computes ND tiles");
    static_assert(canopy::adv::is_half_or_float<T>, "LogSoftMax supports half and float");
    namespace adv = canopy::adv;
    const char* api = "LogSoftMax";
    const adv::SoftmaxShape shape = adv::softmax_shape<T>(api, tiling, softmaxShapeInfo, true);
    adv::AdvancedCall call(api);
    const uint64_t elements = uint64_t(shape.m) * shape.k;
    const uint64_t reduced = uint64_t(shape.m) * adv::reduced_per_row<T>;
    const T* s = call.in("srcTensor", src, elements, "the shape");
    T* d = call.out("dstTensor", dst, elements, "the shape");
    T* sum_data = call.out("sumTensor", sum, reduced, "the shape");
    T* max_data = call.out("maxTensor", max, reduced, "the shape");
    const uint32_t min_tmp = adv::sizes::softmax_row_floats(shape.k, sizeof(T)) * 4;
    if (sharedTmpBuffer.GetSize() > 0 || sharedTmpBuffer.landed_address() != nullptr) {
        call.tmp("sharedTmpBuffer", sharedTmpBuffer, min_tmp, "GetLogSoftMaxMinTmpSize");
    } else {
        call.stack(min_tmp, "GetLogSoftMaxMinTmpSize");
    }
    call.issue();
    const adv::Exponentials ex = adv::exponentials(adv::read_rows(s, shape));
    adv::write_rows(d, shape, adv::RowMatrix((ex.e.colwise() / ex.sum).log10()));
    adv::write_reduced(sum_data, ex.sum);
    adv::write_reduced(max_data, ex.max);
}

}  // namespace AscendC
