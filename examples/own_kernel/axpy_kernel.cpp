// z = alpha * x + y. Each block takes its slice of length / numBlocks elements through the Unified
// Buffer one tile at a time: copy in (global memory to VECIN queues), compute (to a VECOUT queue),
// copy out (back to global memory). The queues hold two tiles each, so that on the NPU the copy of
// one tile overlaps the computation of the previous one.
#include "axpy_kernel.h"

namespace {

constexpr int32_t buffer_num = 2;

class Axpy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, uint32_t length) {
        alpha_ = alpha;
        const uint32_t block_length = length / AscendC::GetBlockNum();
        tiles_ = block_length / axpy_tile_length;
        const uint64_t offset = uint64_t(block_length) * AscendC::GetBlockIdx();
        x_.SetGlobalBuffer((__gm__ float*)x + offset, block_length);
        y_.SetGlobalBuffer((__gm__ float*)y + offset, block_length);
        z_.SetGlobalBuffer((__gm__ float*)z + offset, block_length);
        pipe_.InitBuffer(x_in_, buffer_num, axpy_tile_length * sizeof(float));
        pipe_.InitBuffer(y_in_, buffer_num, axpy_tile_length * sizeof(float));
        pipe_.InitBuffer(z_out_, buffer_num, axpy_tile_length * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t tile = 0; tile < tiles_; ++tile) {
            CopyIn(tile);
            Compute();
            CopyOut(tile);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t tile) {
        AscendC::LocalTensor<float> x = x_in_.AllocTensor<float>();
        AscendC::LocalTensor<float> y = y_in_.AllocTensor<float>();
        AscendC::DataCopy(x, x_[tile * axpy_tile_length], axpy_tile_length);
        AscendC::DataCopy(y, y_[tile * axpy_tile_length], axpy_tile_length);
        x_in_.EnQue(x);
        y_in_.EnQue(y);
    }

    __aicore__ inline void Compute() {
        AscendC::LocalTensor<float> x = x_in_.DeQue<float>();
        AscendC::LocalTensor<float> y = y_in_.DeQue<float>();
        AscendC::LocalTensor<float> z = z_out_.AllocTensor<float>();
        AscendC::Muls(z, x, alpha_, axpy_tile_length);
        AscendC::Add(z, z, y, axpy_tile_length);
        z_out_.EnQue(z);
        x_in_.FreeTensor(x);
        y_in_.FreeTensor(y);
    }

    __aicore__ inline void CopyOut(uint32_t tile) {
        AscendC::LocalTensor<float> z = z_out_.DeQue<float>();
        AscendC::DataCopy(z_[tile * axpy_tile_length], z, axpy_tile_length);
        z_out_.FreeTensor(z);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, buffer_num> x_in_, y_in_;
    AscendC::TQue<AscendC::TPosition::VECOUT, buffer_num> z_out_;
    AscendC::GlobalTensor<float> x_, y_, z_;
    float alpha_ = 0;
    uint32_t tiles_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, uint32_t length) {
    Axpy op;
    op.Init(x, y, z, alpha, length);
    op.Process();
}
