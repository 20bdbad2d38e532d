// torch binding of flash_fwd: checks inputs, allocates out and lse, launches on the current stream.
#include <ATen/cuda/CUDAContext.h>
#include <torch/extension.h>

#include <cmath>

#include "flash_fwd.h"

std::vector<torch::Tensor> forward(torch::Tensor q, torch::Tensor k, torch::Tensor v, double scale, int64_t config) {
  TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda(), "q, k, v must be CUDA tensors");
  TORCH_CHECK(q.dim() == 4 && k.dim() == 4 && v.dim() == 4, "q, k, v must be (B, H, S, D)");
  TORCH_CHECK(k.sizes() == v.sizes() && q.size(0) == k.size(0) && q.size(1) == k.size(1) && q.size(3) == k.size(3),
              "shapes differ: q (B,H,Sq,D), k and v (B,H,Sk,D)");
  TORCH_CHECK(q.scalar_type() == k.scalar_type() && q.scalar_type() == v.scalar_type(), "dtypes differ");
  const bool bf16 = q.scalar_type() == at::kBFloat16;
  TORCH_CHECK(bf16 || q.scalar_type() == at::kHalf, "dtype must be bfloat16 or float16");
  const int d = q.size(3);
  TORCH_CHECK(d == 64 || d == 128 || d == 256, "head dim must be 64, 128 or 256");
  TORCH_CHECK(config >= 0 && config < flash_fwd_configs(d), "no such config for this head dim");
  // cp.async copies 16-byte rows: the head dim must be contiguous and each row 16-byte aligned.
  auto ready = [](torch::Tensor t) {
    return (t.stride(3) == 1 && t.stride(2) % 8 == 0 && t.stride(1) % 8 == 0 && t.stride(0) % 8 == 0 &&
            reinterpret_cast<uintptr_t>(t.data_ptr()) % 16 == 0) ? t : t.contiguous();
  };
  q = ready(q); k = ready(k); v = ready(v);
  auto o = torch::empty_like(q, at::MemoryFormat::Contiguous);
  auto lse = torch::empty({q.size(0), q.size(1), q.size(2)}, q.options().dtype(at::kFloat));
  FlashFwdParams p{q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr<float>(),
                   (int)q.size(0), (int)q.size(1), (int)q.size(2), (int)k.size(2), d,
                   (float)(scale * 1.4426950408889634),
                   q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
                   v.stride(0), v.stride(1), v.stride(2), o.stride(0), o.stride(1), o.stride(2)};
  const cudaError_t err = flash_fwd(p, bf16, (int)config, at::cuda::getCurrentCUDAStream());
  TORCH_CHECK(err == cudaSuccess, "flash_fwd launch failed: ", cudaGetErrorString(err));
  return {o, lse};
}

int64_t configs(int64_t head_dim) { return flash_fwd_configs((int)head_dim); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &forward, "FlashAttention-2 forward (mma.sync): (out, lse)");
  m.def("configs", &configs, "number of tile configs for a head dim");
}
