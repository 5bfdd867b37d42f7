// reduce_sum: y[r] = sum of row r of a [rows, columns] float matrix, in one block. Each row is
// reduced with ReduceSum (the vector unit's adjacent-pair tree within a 256-byte repeat); the row
// sums are gathered by the scalar unit and written with DataCopyPad, since rows * 4 bytes need not
// be a multiple of 32.
#include "reference_ops.h"

namespace {

class KernelReduceSum {
public:
    __aicore__ inline KernelReduceSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowsTiling& tiling) {
        rows_ = tiling.rows;
        columns_ = tiling.columns;
        xGm_.SetGlobalBuffer((__gm__ float*)x, uint64_t(rows_) * columns_);
        yGm_.SetGlobalBuffer((__gm__ float*)y, rows_);
        pipe_.InitBuffer(inQueue_, 1, rows_ * columns_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, 1, rows_ * sizeof(float));
        pipe_.InitBuffer(reduceBuf_, AscendC::ONE_BLK_SIZE);
        pipe_.InitBuffer(workBuf_, AscendC::ONE_BLK_SIZE);
    }

    __aicore__ inline void Process() {
        AscendC::LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm_, rows_ * columns_);
        inQueue_.EnQue(xLocal);

        xLocal = inQueue_.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue_.AllocTensor<float>();
        AscendC::LocalTensor<float> reduced = reduceBuf_.Get<float>();
        AscendC::LocalTensor<float> work = workBuf_.Get<float>();
        for (uint32_t row = 0; row < rows_; row++) {
            AscendC::ReduceSum(reduced, xLocal[row * columns_], work, columns_);
            const int32_t eventId = pipe_.FetchEventID(AscendC::HardEvent::V_S);
            AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
            yLocal.SetValue(row, reduced.GetValue(0));
        }
        outQueue_.EnQue(yLocal);
        inQueue_.FreeTensor(xLocal);

        yLocal = outQueue_.DeQue<float>();
        AscendC::DataCopyPad(yGm_, yLocal, AscendC::DataCopyExtParams(1, rows_ * sizeof(float), 0, 0, 0));
        outQueue_.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> reduceBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf_;
    AscendC::GlobalTensor<float> xGm_;
    AscendC::GlobalTensor<float> yGm_;
    uint32_t rows_ = 0;
    uint32_t columns_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, RowsTiling tiling) {
    KernelReduceSum op;
    op.Init(x, y, tiling);
    op.Process();
}
