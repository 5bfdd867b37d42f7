// matmul: C = A x B with half inputs and fp32 accumulation on the cube path, C stored as half.
//
// Block b owns the singleCoreM x singleCoreN tile (b / nTiles, b % nTiles) of C and computes it in
// baseM x baseN pieces. For each piece it walks K in baseK steps:
//   GM (ND) -> A1 / B1 (L1, NZ)   DataCopy with Nd2NzParams
//   A1 -> A2 (L0A, zZ), B1 -> B2 (L0B, transposed fractals)   LoadData, one fractal row at a time
//   A2 x B2 -> CO1 (L0C)          Mmad, the first step initialising C, the others accumulating
// and then moves the piece to GM with Fixpipe, converting fp32 to half (F322F16). Every stage goes
// through a TQue of its position, double-buffered where the memory holds two buffers.
#include "reference_ops.h"

namespace {

constexpr uint32_t CUBE_BLOCK = 16;
constexpr uint32_t FRACTAL_ELEMENTS = CUBE_BLOCK * CUBE_BLOCK;  // 512 bytes of half

class KernelMatmul {
public:
    __aicore__ inline KernelMatmul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const MatmulTiling& tiling) {
        tiling_ = tiling;
        const uint32_t nTiles = tiling_.N / tiling_.singleCoreN;
        const uint32_t mTile = AscendC::GetBlockIdx() / nTiles;
        columnOffset_ = (AscendC::GetBlockIdx() % nTiles) * tiling_.singleCoreN;
        const uint64_t rowOffset = uint64_t(mTile) * tiling_.singleCoreM;
        aGm_.SetGlobalBuffer((__gm__ half*)a + rowOffset * tiling_.K, uint64_t(tiling_.singleCoreM) * tiling_.K);
        bGm_.SetGlobalBuffer((__gm__ half*)b, uint64_t(tiling_.K) * tiling_.N);
        cGm_.SetGlobalBuffer((__gm__ half*)c + rowOffset * tiling_.N, uint64_t(tiling_.singleCoreM) * tiling_.N);

        const uint32_t aBytes = tiling_.baseM * tiling_.baseK * sizeof(half);
        const uint32_t bBytes = tiling_.baseK * tiling_.baseN * sizeof(half);
        pipe_.InitBuffer(inQueueA1_, 2, aBytes);
        pipe_.InitBuffer(inQueueB1_, 2, bBytes);
        pipe_.InitBuffer(inQueueA2_, BuffersThatFit(aBytes, AscendC::L0A_BYTES), aBytes);
        pipe_.InitBuffer(inQueueB2_, BuffersThatFit(bBytes, AscendC::L0B_BYTES), bBytes);
        pipe_.InitBuffer(outQueueCO1_, 1, tiling_.baseM * tiling_.baseN * sizeof(float));
    }

    __aicore__ inline void Process() {
        const uint32_t kSteps = tiling_.K / tiling_.baseK;
        for (uint32_t mBase = 0; mBase < tiling_.singleCoreM; mBase += tiling_.baseM) {
            for (uint32_t nBase = 0; nBase < tiling_.singleCoreN; nBase += tiling_.baseN) {
                AscendC::LocalTensor<float> cLocal = outQueueCO1_.AllocTensor<float>();
                for (uint32_t kStep = 0; kStep < kSteps; kStep++) {
                    CopyInA1(mBase, kStep * tiling_.baseK);
                    CopyInB1(kStep * tiling_.baseK, columnOffset_ + nBase);
                    SplitA();
                    SplitB();
                    Compute(cLocal, kStep == 0);
                }
                outQueueCO1_.EnQue(cLocal);
                CopyOut(mBase, columnOffset_ + nBase);
            }
        }
    }

private:
    static __aicore__ inline uint8_t BuffersThatFit(uint32_t bytes, std::size_t capacity) {
        return 2 * std::size_t(bytes) <= capacity ? 2 : 1;
    }

    __aicore__ inline void CopyInA1(uint32_t row, uint32_t k) {
        AscendC::LocalTensor<half> a1Local = inQueueA1_.AllocTensor<half>();
        AscendC::DataCopy(a1Local, aGm_[uint64_t(row) * tiling_.K + k],
                          AscendC::Nd2NzParams(1, tiling_.baseM, tiling_.baseK, 0, tiling_.K, tiling_.baseM, 1, 0));
        inQueueA1_.EnQue(a1Local);
    }

    __aicore__ inline void CopyInB1(uint32_t k, uint32_t column) {
        AscendC::LocalTensor<half> b1Local = inQueueB1_.AllocTensor<half>();
        AscendC::DataCopy(b1Local, bGm_[uint64_t(k) * tiling_.N + column],
                          AscendC::Nd2NzParams(1, tiling_.baseK, tiling_.baseN, 0, tiling_.N, tiling_.baseK, 1, 0));
        inQueueB1_.EnQue(b1Local);
    }

    // A1 (NZ) -> A2 (zZ): for each 16-row band of A, its baseK / 16 fractals, which lie baseM / 16
    // fractals apart in L1, become consecutive in L0A.
    __aicore__ inline void SplitA() {
        AscendC::LocalTensor<half> a1Local = inQueueA1_.DeQue<half>();
        AscendC::LocalTensor<half> a2Local = inQueueA2_.AllocTensor<half>();
        const AscendC::LoadData2DParams params(0, static_cast<uint8_t>(tiling_.baseK / CUBE_BLOCK),
                                               static_cast<uint16_t>(tiling_.baseM / CUBE_BLOCK), 0, 0, false, 0);
        for (uint32_t band = 0; band < tiling_.baseM / CUBE_BLOCK; band++) {
            AscendC::LoadData(a2Local[band * tiling_.baseK * CUBE_BLOCK], a1Local[band * FRACTAL_ELEMENTS], params);
        }
        inQueueA2_.EnQue(a2Local);
        inQueueA1_.FreeTensor(a1Local);
    }

    // B1 (NZ) -> B2: for each 16-row band of B, its baseN / 16 fractals, transposed.
    __aicore__ inline void SplitB() {
        AscendC::LocalTensor<half> b1Local = inQueueB1_.DeQue<half>();
        AscendC::LocalTensor<half> b2Local = inQueueB2_.AllocTensor<half>();
        const AscendC::LoadData2DParams params(0, static_cast<uint8_t>(tiling_.baseN / CUBE_BLOCK),
                                               static_cast<uint16_t>(tiling_.baseK / CUBE_BLOCK), 0, 0, true, 0);
        for (uint32_t band = 0; band < tiling_.baseK / CUBE_BLOCK; band++) {
            AscendC::LoadData(b2Local[band * tiling_.baseN * CUBE_BLOCK], b1Local[band * FRACTAL_ELEMENTS], params);
        }
        inQueueB2_.EnQue(b2Local);
        inQueueB1_.FreeTensor(b1Local);
    }

    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& cLocal, bool firstStep) {
        AscendC::LocalTensor<half> a2Local = inQueueA2_.DeQue<half>();
        AscendC::LocalTensor<half> b2Local = inQueueB2_.DeQue<half>();
        AscendC::Mmad(cLocal, a2Local, b2Local,
                      AscendC::MmadParams(static_cast<uint16_t>(tiling_.baseM), static_cast<uint16_t>(tiling_.baseN),
                                          static_cast<uint16_t>(tiling_.baseK), 0, false, firstStep));
        inQueueA2_.FreeTensor(a2Local);
        inQueueB2_.FreeTensor(b2Local);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t column) {
        AscendC::LocalTensor<float> cLocal = outQueueCO1_.DeQue<float>();
        AscendC::Fixpipe(cGm_[uint64_t(row) * tiling_.N + column], cLocal,
                         AscendC::FixpipeParamsV220(static_cast<uint16_t>(tiling_.baseN),
                                                    static_cast<uint16_t>(tiling_.baseM),
                                                    static_cast<uint16_t>(tiling_.baseM), tiling_.N, false,
                                                    F322F16, 0, 1, 0, 0, 0));
        outQueueCO1_.FreeTensor(cLocal);
    }

    MatmulTiling tiling_{};
    uint32_t columnOffset_ = 0;
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1_;
    AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1_;
    AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2_;
    AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2_;
    AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1_;
    AscendC::GlobalTensor<half> aGm_;
    AscendC::GlobalTensor<half> bGm_;
    AscendC::GlobalTensor<half> cGm_;
};

}  // namespace

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulTiling tiling) {
    KernelMatmul op;
    op.Init(a, b, c, tiling);
    op.Process();
}
