// torch binding of flash_fwd: checks inputs, allocates out and lse, launches on the current stream.
#include <ATen/cuda/CUDAContext.h>
#include <torch/extension.h>

#include <cmath>

#include "flash_fwd.h"

// checks shared by forward and attributes; fills everything in p but the pointers and strides
static bool check(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double scale,
                  int64_t config, bool causal, FlashFwdParams& p) {
  TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda(), "q, k, v must be CUDA tensors");
  TORCH_CHECK(q.dim() == 4 && k.dim() == 4 && v.dim() == 4, "q, k, v must be (B, H, S, D)");
  TORCH_CHECK(k.sizes() == v.sizes() && q.size(0) == k.size(0) && q.size(3) == k.size(3) &&
              q.size(1) % k.size(1) == 0,
              "shapes differ: q (B,Hq,Sq,D), k and v (B,Hkv,Sk,D) with Hq a multiple of Hkv");
  TORCH_CHECK(q.scalar_type() == k.scalar_type() && q.scalar_type() == v.scalar_type(), "dtypes differ");
  const bool bf16 = q.scalar_type() == at::kBFloat16;
  TORCH_CHECK(bf16 || q.scalar_type() == at::kHalf, "dtype must be bfloat16 or float16");
  const int d = q.size(3);
  TORCH_CHECK(d == 64 || d == 128 || d == 256, "head dim must be 64, 128 or 256");
  TORCH_CHECK(config >= 0 && config < flash_fwd_configs(d), "no such config for this head dim");
  p = FlashFwdParams{};
  p.batch = (int)q.size(0); p.heads = (int)q.size(1); p.nq = (int)q.size(2); p.nk = (int)k.size(2); p.head_dim = d;
  p.group = (int)(q.size(1) / k.size(1));
  p.causal = causal;
  p.scale_log2 = (float)(scale * 1.4426950408889634);
  return bf16;
}

std::vector<torch::Tensor> forward(torch::Tensor q, torch::Tensor k, torch::Tensor v, double scale, int64_t config,
                                   bool causal) {
  FlashFwdParams p;
  const bool bf16 = check(q, k, v, scale, config, causal, p);
  // cp.async copies 16-byte rows: the head dim must be contiguous and each row 16-byte aligned.
  auto ready = [](torch::Tensor t) {
    return (t.stride(3) == 1 && t.stride(2) % 8 == 0 && t.stride(1) % 8 == 0 && t.stride(0) % 8 == 0 &&
            reinterpret_cast<uintptr_t>(t.data_ptr()) % 16 == 0) ? t : t.contiguous();
  };
  q = ready(q); k = ready(k); v = ready(v);
  auto o = torch::empty_like(q, at::MemoryFormat::Contiguous);
  auto lse = torch::empty({q.size(0), q.size(1), q.size(2)}, q.options().dtype(at::kFloat));
  p.q = q.data_ptr(); p.k = k.data_ptr(); p.v = v.data_ptr(); p.o = o.data_ptr(); p.lse = lse.data_ptr<float>();
  p.q_sb = q.stride(0); p.q_sh = q.stride(1); p.q_sn = q.stride(2);
  p.k_sb = k.stride(0); p.k_sh = k.stride(1); p.k_sn = k.stride(2);
  p.v_sb = v.stride(0); p.v_sh = v.stride(1); p.v_sn = v.stride(2);
  p.o_sb = o.stride(0); p.o_sh = o.stride(1); p.o_sn = o.stride(2);
  const cudaError_t err = flash_fwd(p, bf16, (int)config, at::cuda::getCurrentCUDAStream());
  TORCH_CHECK(err == cudaSuccess, "flash_fwd launch failed: ", cudaGetErrorString(err));
  return {o, lse};
}

// bytes of local memory per thread of the kernel forward would launch (> 0: registers spilled), and its registers
std::vector<int64_t> attributes(torch::Tensor q, torch::Tensor k, torch::Tensor v, int64_t config, bool causal) {
  FlashFwdParams p;
  const bool bf16 = check(q, k, v, 1.0, config, causal, p);
  cudaFuncAttributes attrs{};
  const cudaError_t err = flash_fwd_attributes(p, bf16, (int)config, &attrs);
  TORCH_CHECK(err == cudaSuccess, "flash_fwd attributes failed: ", cudaGetErrorString(err));
  return {(int64_t)attrs.localSizeBytes, (int64_t)attrs.numRegs};
}

int64_t configs(int64_t head_dim) { return flash_fwd_configs((int)head_dim); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &forward, "FlashAttention-2 forward (mma.sync): (out, lse)");
  m.def("attributes", &attributes, "[local bytes per thread, registers] of the kernel forward would launch");
  m.def("configs", &configs, "number of tile configs for a head dim");
}
