// add: z = x + y, the add_custom pattern. Each block takes totalLength / numBlocks elements and
// streams them through double-buffered queues (BUFFER_NUM = 2): CopyIn (GM -> VECIN), Compute
// (VECIN -> VECOUT), CopyOut (VECOUT -> GM), one tile at a time.
#include "reference_ops.h"

namespace {

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTiling& tiling) {
        blockLength_ = tiling.totalLength / AscendC::GetBlockNum();
        tileNum_ = tiling.tileNum;
        tileLength_ = blockLength_ / tileNum_ / BUFFER_NUM;
        const uint64_t blockOffset = uint64_t(blockLength_) * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ T*)x + blockOffset, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + blockOffset, blockLength_);
        zGm_.SetGlobalBuffer((__gm__ T*)z + blockOffset, blockLength_);
        pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(T));
    }

    __aicore__ inline void Process() {
        const int32_t loopCount = tileNum_ * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress) {
        AscendC::LocalTensor<T> xLocal = inQueueX_.template AllocTensor<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY_.template AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm_[progress * tileLength_], tileLength_);
        AscendC::DataCopy(yLocal, yGm_[progress * tileLength_], tileLength_);
        inQueueX_.EnQue(xLocal);
        inQueueY_.EnQue(yLocal);
    }

    __aicore__ inline void Compute(int32_t) {
        AscendC::LocalTensor<T> xLocal = inQueueX_.template DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY_.template DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ_.template AllocTensor<T>();
        AscendC::Add(zLocal, xLocal, yLocal, tileLength_);
        outQueueZ_.template EnQue<T>(zLocal);
        inQueueX_.FreeTensor(xLocal);
        inQueueY_.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress) {
        AscendC::LocalTensor<T> zLocal = outQueueZ_.template DeQue<T>();
        AscendC::DataCopy(zGm_[progress * tileLength_], zLocal, tileLength_);
        outQueueZ_.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX_;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueY_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ_;
    AscendC::GlobalTensor<T> xGm_;
    AscendC::GlobalTensor<T> yGm_;
    AscendC::GlobalTensor<T> zGm_;
    uint32_t blockLength_ = 0;
    uint32_t tileNum_ = 0;
    uint32_t tileLength_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling tiling) {
    KernelAdd<float> op;
    op.Init(x, y, z, tiling);
    op.Process();
}

extern "C" __global__ __aicore__ void add_custom_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling tiling) {
    KernelAdd<half> op;
    op.Init(x, y, z, tiling);
    op.Process();
}
