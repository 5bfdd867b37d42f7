// softmax along the rows of a [rows, columns] float matrix, in one block: the matrix is brought into
// the UB whole; each row is shifted by its maximum, exponentiated, and scaled by the inverse of its
// sum; the result goes back in one move.
#include "reference_ops.h"

namespace {

class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowsTiling& tiling) {
        rows_ = tiling.rows;
        columns_ = tiling.columns;
        xGm_.SetGlobalBuffer((__gm__ float*)x, uint64_t(rows_) * columns_);
        yGm_.SetGlobalBuffer((__gm__ float*)y, uint64_t(rows_) * columns_);
        pipe_.InitBuffer(inQueue_, 1, rows_ * columns_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, 1, rows_ * columns_ * sizeof(float));
        pipe_.InitBuffer(reduceBuf_, AscendC::ONE_BLK_SIZE);  // the row's maximum / sum
        pipe_.InitBuffer(workBuf_, AscendC::ONE_BLK_SIZE);    // ReduceMax / ReduceSum scratch
    }

    __aicore__ inline void Process() {
        CopyIn();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn() {
        AscendC::LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm_, rows_ * columns_);
        inQueue_.EnQue(xLocal);
    }

    __aicore__ inline void Compute() {
        AscendC::LocalTensor<float> xLocal = inQueue_.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue_.AllocTensor<float>();
        AscendC::LocalTensor<float> reduced = reduceBuf_.Get<float>();
        AscendC::LocalTensor<float> work = workBuf_.Get<float>();
        for (uint32_t row = 0; row < rows_; row++) {
            AscendC::LocalTensor<float> in = xLocal[row * columns_];
            AscendC::LocalTensor<float> out = yLocal[row * columns_];
            AscendC::ReduceMax(reduced, in, work, columns_);
            const float rowMax = ReadScalar(reduced);
            AscendC::Adds(out, in, -rowMax, columns_);
            AscendC::Exp(out, out, columns_);
            AscendC::ReduceSum(reduced, out, work, columns_);
            const float rowSum = ReadScalar(reduced);
            AscendC::Muls(out, out, 1.0f / rowSum, columns_);
        }
        outQueue_.EnQue(yLocal);
        inQueue_.FreeTensor(xLocal);
    }

    // A reduction result read by the scalar unit: it must wait for the vector pipe.
    __aicore__ inline float ReadScalar(const AscendC::LocalTensor<float>& reduced) {
        const int32_t eventId = pipe_.FetchEventID(AscendC::HardEvent::V_S);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
        return reduced.GetValue(0);
    }

    __aicore__ inline void CopyOut() {
        AscendC::LocalTensor<float> yLocal = outQueue_.DeQue<float>();
        AscendC::DataCopy(yGm_, yLocal, rows_ * columns_);
        outQueue_.FreeTensor(yLocal);
    }

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

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, RowsTiling tiling) {
    KernelSoftmax op;
    op.Init(x, y, tiling);
    op.Process();
}
