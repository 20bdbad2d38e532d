// Plain-C++ interface of the mma.sync FlashAttention forward (no torch headers: the .cu builds on its own).
#pragma once
#include <cuda_runtime.h>

struct FlashFwdParams {
  const void* q;
  const void* k;
  const void* v;
  void* o;
  float* lse;  // [batch * heads, nq]
  int batch, heads, nq, nk, head_dim;
  int group;    // query heads per kv head (GQA; 1: one kv head per query head)
  bool causal;  // top-left: query i sees keys j <= i
  float scale_log2;  // softmax scale * log2(e)
  // strides in elements for batch, head and sequence; the head dim is contiguous
  long q_sb, q_sh, q_sn, k_sb, k_sh, k_sn, v_sb, v_sh, v_sn, o_sb, o_sh, o_sn;
};

int flash_fwd_configs(int head_dim);
cudaError_t flash_fwd(const FlashFwdParams& p, bool bf16, int config, cudaStream_t stream);
// the kernel flash_fwd would launch for p and config: its registers and local memory (spills), not launched
cudaError_t flash_fwd_attributes(const FlashFwdParams& p, bool bf16, int config, cudaFuncAttributes* attrs);
