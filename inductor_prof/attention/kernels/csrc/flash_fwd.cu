// Own FlashAttention-2 forward on tensor cores: mma.sync m16n8k16 (bf16/fp16 in, fp32 accumulate).
//
// One CTA owns BM query rows of one (batch, head); each warp owns 16 of them. K and V tiles of BN keys are
// double-buffered in shared memory with cp.async, read into fragments with ldmatrix (V transposed on the
// fly), and stored with a 16-byte-chunk XOR swizzle so that ldmatrix is free of bank conflicts. Scores stay
// in registers: the S accumulator fragments are repacked as the A operand of the P*V product, as in FA2.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "flash_fwd.h"

namespace {

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool valid) {
  const int bytes = valid ? 16 : 0;  // 0: zero-fill rows past the sequence end
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

__device__ __forceinline__ void ldmatrix_x4(uint32_t addr, uint32_t (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t addr, uint32_t (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

template <typename T>
struct Mma;
template <>
struct Mma<__nv_bfloat16> {
  __device__ __forceinline__ static void run(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
  __device__ __forceinline__ static uint32_t pack(float lo, float hi) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t*>(&v);
  }
};
template <>
struct Mma<__half> {
  __device__ __forceinline__ static void run(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
  __device__ __forceinline__ static uint32_t pack(float lo, float hi) {
    __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t*>(&v);
  }
};

// Element offset of (row, col) in a [rows][D] tile whose 16-byte chunks are XOR-swizzled by row % 8.
template <int D>
__device__ __forceinline__ int swz(int row, int col) {
  return row * D + ((((col >> 3) ^ (row & 7))) << 3) + (col & 7);
}

// rows [row0, row0 + ROWS) of a [n][D] matrix (row stride `stride` elements) into a swizzled tile.
// Each thread copies the same column chunk of rows tid/CHUNKS + i*STEP: one running pointer, no per-chunk
// address kept live across the main loop (those cost registers the accumulators need).
template <typename T, int D, int ROWS, int THREADS>
__device__ __forceinline__ void load_tile(T* dst, const T* src, long stride, int row0, int n, int tid) {
  constexpr int CHUNKS = D / 8, STEP = THREADS / CHUNKS;
  static_assert(THREADS % CHUNKS == 0 && ROWS % STEP == 0, "tile rows must split evenly over the threads");
  const int r = tid / CHUNKS, c = (tid % CHUNKS) * 8;
  const T* p = src + (long)(row0 + r) * stride + c;
  const uint32_t d = smem_addr(dst + swz<D>(r, c));
#pragma unroll
  for (int i = 0; i < ROWS / STEP; ++i) {
    const bool ok = row0 + r + i * STEP < n;
    // when STEP is a multiple of 8 rows the swizzle of row r + i*STEP equals row r's: a fixed smem stride
    const uint32_t di = STEP % 8 == 0 ? d + i * STEP * D * (int)sizeof(T) : smem_addr(dst + swz<D>(r + i * STEP, c));
    cp_async16(di, ok ? p : src, ok);
    p += STEP * stride;
  }
}

// MT m16 tiles per warp: with MT = 2 every K/V fragment read from shared memory feeds two mma instead of one,
// halving shared-memory traffic per flop (the limit at MT = 1).
// CAUSAL (top-left: query i sees keys j <= i): key blocks past the CTA's last row are never loaded, and only
// blocks that reach past its first row are masked.
template <typename T, int D, int BM, int BN, int MT, bool Q_IN_REGS, bool CAUSAL>
__global__ void __launch_bounds__(BM / (16 * MT) * 32, 1) flash_fwd_kernel(FlashFwdParams p) {
  constexpr int WARPS = BM / (16 * MT), THREADS = WARPS * 32;
  constexpr int KSTEPS = D / 16;   // k-steps of Q*K^T over the head dim
  constexpr int STILES = BN / 8;   // n8 tiles of the score block
  constexpr int OTILES = D / 8;    // n8 tiles of the output
  extern __shared__ __align__(128) unsigned char smem_raw[];
  T* sQ = reinterpret_cast<T*>(smem_raw);
  T* sK = sQ + BM * D;       // 2 stages
  T* sV = sK + 2 * BN * D;   // 2 stages

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.x * BM;
  const int bh = blockIdx.y, b = bh / p.heads, h = bh % p.heads;
  const int hkv = h / p.group;  // GQA: query head h reads kv head h / (heads / kv heads)
  const T* q = static_cast<const T*>(p.q) + b * p.q_sb + h * p.q_sh;
  const T* k = static_cast<const T*>(p.k) + b * p.k_sb + hkv * p.k_sh;
  const T* v = static_cast<const T*>(p.v) + b * p.v_sb + hkv * p.v_sh;
  T* o = static_cast<T*>(p.o) + b * p.o_sb + h * p.o_sh;

  load_tile<T, D, BM, THREADS>(sQ, q, p.q_sn, m0, p.nq, tid);
  load_tile<T, D, BN, THREADS>(sK, k, p.k_sn, 0, p.nk, tid);
  load_tile<T, D, BN, THREADS>(sV, v, p.v_sn, 0, p.nk, tid);
  cp_async_commit();

  float acc[MT][OTILES][4];
  float row_max[MT][2], row_sum[MT][2];  // max in log2 units; sums are this thread's partials
#pragma unroll
  for (int mt = 0; mt < MT; ++mt) {
#pragma unroll
    for (int t = 0; t < OTILES; ++t) acc[mt][t][0] = acc[mt][t][1] = acc[mt][t][2] = acc[mt][t][3] = 0.f;
    row_max[mt][0] = row_max[mt][1] = -INFINITY;
    row_sum[mt][0] = row_sum[mt][1] = 0.f;
  }
  uint32_t qf[Q_IN_REGS ? KSTEPS : 1][4];

  const int qrow = warp * 16 * MT + (lane & 7) + ((lane >> 3) & 1) * 8;  // ldmatrix row for the A operand
  const int qcol = (lane >> 4) * 8;
  const int nkeys = CAUSAL ? min(p.nk, m0 + BM) : p.nk;  // keys any row of this CTA sees
  const int nblocks = (nkeys + BN - 1) / BN;
  for (int j = 0; j < nblocks; ++j) {
    const int stage = j & 1;
    if (j + 1 < nblocks) {  // prefetch the next K/V tiles while this one is used
      load_tile<T, D, BN, THREADS>(sK + (stage ^ 1) * BN * D, k, p.k_sn, (j + 1) * BN, p.nk, tid);
      load_tile<T, D, BN, THREADS>(sV + (stage ^ 1) * BN * D, v, p.v_sn, (j + 1) * BN, p.nk, tid);
      cp_async_commit();
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();
    if (Q_IN_REGS && j == 0) {
#pragma unroll
      for (int kk = 0; kk < KSTEPS; ++kk) ldmatrix_x4(smem_addr(sQ + swz<D>(qrow, kk * 16 + qcol)), qf[kk]);
    }
    const T* cK = sK + stage * BN * D;
    const T* cV = sV + stage * BN * D;

    // S = Q K^T for this warp's 16*MT rows x BN keys.
    float s[MT][STILES][4];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int t = 0; t < STILES; ++t) s[mt][t][0] = s[mt][t][1] = s[mt][t][2] = s[mt][t][3] = 0.f;
#pragma unroll
    for (int kk = 0; kk < KSTEPS; ++kk) {
      uint32_t a[MT][4];
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) {
        if (Q_IN_REGS) {
#pragma unroll
          for (int i = 0; i < 4; ++i) a[mt][i] = qf[Q_IN_REGS ? kk : 0][i];
        } else {
          ldmatrix_x4(smem_addr(sQ + swz<D>(qrow + mt * 16, kk * 16 + qcol)), a[mt]);
        }
      }
#pragma unroll
      for (int t = 0; t < STILES / 2; ++t) {
        uint32_t bfrag[4];  // keys t*16.. +15, dims kk*16.. +15: b0,b1 of two n8 tiles
        const int krow = t * 16 + (lane & 7) + (lane >> 4) * 8;
        const int kcol = kk * 16 + ((lane >> 3) & 1) * 8;
        ldmatrix_x4(smem_addr(cK + swz<D>(krow, kcol)), bfrag);
#pragma unroll
        for (int mt = 0; mt < MT; ++mt) {
          Mma<T>::run(s[mt][2 * t], a[mt], bfrag[0], bfrag[1]);
          Mma<T>::run(s[mt][2 * t + 1], a[mt], bfrag[2], bfrag[3]);
        }
      }
    }
    // ragged tail: keys past the end get no weight; causal diagonal block: nor do keys after a row's own index
    if ((j + 1) * BN > p.nk || (CAUSAL && (j + 1) * BN - 1 > m0)) {
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int t = 0; t < STILES; ++t)
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int col = j * BN + t * 8 + 2 * (lane & 3) + (e & 1);
            const int row = m0 + warp * 16 * MT + mt * 16 + (lane >> 2) + (e >> 1) * 8;
            if (col >= p.nk || (CAUSAL && col > row)) s[mt][t][e] = -INFINITY;
          }
    }

    // Online softmax: rows lane/4 (e = 0,1) and lane/4 + 8 (e = 2,3); a row's values live in one quad.
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
      float mx[2] = {-INFINITY, -INFINITY};
#pragma unroll
      for (int t = 0; t < STILES; ++t) {
        mx[0] = fmaxf(mx[0], fmaxf(s[mt][t][0], s[mt][t][1]));
        mx[1] = fmaxf(mx[1], fmaxf(s[mt][t][2], s[mt][t][3]));
      }
      float alpha[2];
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 1));
        mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 2));
        const float m_new = fmaxf(row_max[mt][r], mx[r] * p.scale_log2);
        alpha[r] = exp2f(row_max[mt][r] - m_new);
        row_max[mt][r] = m_new;
        row_sum[mt][r] *= alpha[r];
      }
#pragma unroll
      for (int t = 0; t < OTILES; ++t) {
        acc[mt][t][0] *= alpha[0];
        acc[mt][t][1] *= alpha[0];
        acc[mt][t][2] *= alpha[1];
        acc[mt][t][3] *= alpha[1];
      }
#pragma unroll
      for (int t = 0; t < STILES; ++t) {
#pragma unroll
        for (int e = 0; e < 4; ++e) s[mt][t][e] = exp2f(fmaf(s[mt][t][e], p.scale_log2, -row_max[mt][e >> 1]));
        row_sum[mt][0] += s[mt][t][0] + s[mt][t][1];
        row_sum[mt][1] += s[mt][t][2] + s[mt][t][3];
      }
    }

    // O += P V: the score fragments, packed to 16 bits, are the A operand directly.
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk) {
      uint32_t a[MT][4];
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) {
        a[mt][0] = Mma<T>::pack(s[mt][2 * kk][0], s[mt][2 * kk][1]);
        a[mt][1] = Mma<T>::pack(s[mt][2 * kk][2], s[mt][2 * kk][3]);
        a[mt][2] = Mma<T>::pack(s[mt][2 * kk + 1][0], s[mt][2 * kk + 1][1]);
        a[mt][3] = Mma<T>::pack(s[mt][2 * kk + 1][2], s[mt][2 * kk + 1][3]);
      }
#pragma unroll
      for (int t = 0; t < OTILES / 2; ++t) {
        uint32_t bfrag[4];  // keys kk*16.. +15 x dims t*16.. +15, transposed: b0,b1 of two n8 tiles
        const int vrow = kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
        const int vcol = t * 16 + (lane >> 4) * 8;
        ldmatrix_x4_trans(smem_addr(cV + swz<D>(vrow, vcol)), bfrag);
#pragma unroll
        for (int mt = 0; mt < MT; ++mt) {
          Mma<T>::run(acc[mt][2 * t], a[mt], bfrag[0], bfrag[1]);
          Mma<T>::run(acc[mt][2 * t + 1], a[mt], bfrag[2], bfrag[3]);
        }
      }
    }
    __syncthreads();  // this stage is overwritten by the prefetch two iterations on
  }

  // Epilogue: normalise, write O (two 16-bit values per store) and the natural log-sum-exp.
#pragma unroll
  for (int mt = 0; mt < MT; ++mt) {
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float sum = row_sum[mt][r];
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      const int row = m0 + warp * 16 * MT + mt * 16 + (lane >> 2) + r * 8;
      if (row >= p.nq) continue;
      const float inv = 1.f / sum;
      T* orow = o + (long)row * p.o_sn;
#pragma unroll
      for (int t = 0; t < OTILES; ++t) {
        const int col = t * 8 + 2 * (lane & 3);
        *reinterpret_cast<uint32_t*>(orow + col) =
            Mma<T>::pack(acc[mt][t][2 * r] * inv, acc[mt][t][2 * r + 1] * inv);
      }
      if ((lane & 3) == 0) p.lse[(long)bh * p.nq + row] = (row_max[mt][r] + log2f(sum)) * 0.69314718055994531f;
    }
  }
}

// attrs != nullptr: fill the compiled kernel's attributes (registers, local memory = spills) instead of launching.
template <typename T, int D, int BM, int BN, int MT, bool Q_IN_REGS>
cudaError_t launch(const FlashFwdParams& p, cudaStream_t stream, cudaFuncAttributes* attrs) {
  auto kernel = p.causal ? flash_fwd_kernel<T, D, BM, BN, MT, Q_IN_REGS, true>
                         : flash_fwd_kernel<T, D, BM, BN, MT, Q_IN_REGS, false>;
  if (attrs) return cudaFuncGetAttributes(attrs, kernel);
  const int smem = (BM * D + 4 * BN * D) * (int)sizeof(T);
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  if (err != cudaSuccess) return err;
  dim3 grid((p.nq + BM - 1) / BM, p.batch * p.heads);
  kernel<<<grid, BM / (16 * MT) * 32, smem, stream>>>(p);
  return cudaGetLastError();
}

template <typename T>
cudaError_t dispatch(const FlashFwdParams& p, int config, cudaStream_t stream, cudaFuncAttributes* attrs) {
  // config 0 is the default for the head dim; the others are alternatives that `tune` times at D = 128.
  switch (p.head_dim) {
    case 64:
      return launch<T, 64, 128, 64, 2, false>(p, stream, attrs);
    case 128:
      switch (config) {
        case 1: return launch<T, 128, 128, 32, 2, false>(p, stream, attrs);
        case 2: return launch<T, 128, 128, 64, 1, true>(p, stream, attrs);
        case 3: return launch<T, 128, 64, 64, 2, false>(p, stream, attrs);
        default: return launch<T, 128, 128, 64, 2, false>(p, stream, attrs);
      }
    case 256:
      return launch<T, 256, 64, 32, 1, false>(p, stream, attrs);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace

int flash_fwd_configs(int head_dim) { return head_dim == 128 ? 4 : 1; }

cudaError_t flash_fwd(const FlashFwdParams& p, bool bf16, int config, cudaStream_t stream) {
  return bf16 ? dispatch<__nv_bfloat16>(p, config, stream, nullptr) : dispatch<__half>(p, config, stream, nullptr);
}

cudaError_t flash_fwd_attributes(const FlashFwdParams& p, bool bf16, int config, cudaFuncAttributes* attrs) {
  return bf16 ? dispatch<__nv_bfloat16>(p, config, nullptr, attrs) : dispatch<__half>(p, config, nullptr, attrs);
}
