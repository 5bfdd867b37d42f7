// reduce_max along axis 0: y[c] = max over r of x[r, c] for a [rows, columns] float matrix, in one
// block. The first row is copied into the accumulator (UB to UB) and every further row is folded in
// with an element-wise Max; rows of `columns` floats must be whole 32-byte data blocks.
#include "reference_ops.h"

namespace {

class KernelReduceMax {
public:
    __aicore__ inline KernelReduceMax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowsTiling& tiling) {
        rows_ = tiling.rows;
        columns_ = tiling.columns;
        xGm_.SetGlobalBuffer((__gm__ float*)x, uint64_t(rows_) * columns_);
        yGm_.SetGlobalBuffer((__gm__ float*)y, columns_);
        pipe_.InitBuffer(inQueue_, 1, rows_ * columns_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, 1, columns_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        AscendC::LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm_, rows_ * columns_);
        inQueue_.EnQue(xLocal);

        xLocal = inQueue_.DeQue<float>();
        AscendC::LocalTensor<float> accumulator = outQueue_.AllocTensor<float>();
        AscendC::DataCopy(accumulator, xLocal, columns_);
        for (uint32_t row = 1; row < rows_; row++) {
            AscendC::Max(accumulator, accumulator, xLocal[row * columns_], columns_);
        }
        outQueue_.EnQue(accumulator);
        inQueue_.FreeTensor(xLocal);

        accumulator = outQueue_.DeQue<float>();
        AscendC::DataCopy(yGm_, accumulator, columns_);
        outQueue_.FreeTensor(accumulator);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue_;
    AscendC::GlobalTensor<float> xGm_;
    AscendC::GlobalTensor<float> yGm_;
    uint32_t rows_ = 0;
    uint32_t columns_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void reduce_max_custom(GM_ADDR x, GM_ADDR y, RowsTiling tiling) {
    KernelReduceMax op;
    op.Init(x, y, tiling);
    op.Process();
}
