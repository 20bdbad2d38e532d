"""FLUX.1 DiT transformer (diffusers `FluxTransformer2DModel`) with the published configs, random weights
unless a local checkpoint is given. Kernels and timings depend on shapes, not weights."""
from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ..errors import UserError
from .base import Target

# FLUX.1-dev / FLUX.1-schnell transformer configs as published (transformer/config.json).
_FLUX_CONFIG = dict(
    patch_size=1, in_channels=64, num_layers=19, num_single_layers=38, attention_head_dim=128,
    num_attention_heads=24, joint_attention_dim=4096, pooled_projection_dim=768, axes_dims_rope=(16, 56, 56),
)
FLUX_PRESETS = {
    "flux": {**_FLUX_CONFIG, "guidance_embeds": True},
    "flux-schnell": {**_FLUX_CONFIG, "guidance_embeds": False},
}
VAE_SCALE = 8   # latent pixels per image pixel
PATCH = 2       # latents are packed 2x2 into tokens


@dataclass
class FluxOptions:
    height: int = 1024
    width: int = 1024
    text_len: int = 512
    batch: int = 1
    dtype: str = "bfloat16"
    double_blocks: int | None = None   # None: the preset's 19
    single_blocks: int | None = None   # None: the preset's 38
    checkpoint: str | None = None      # diffusers folder or .safetensors file
    guidance: float = 3.5
    device: str = "cuda"
    resolutions: tuple[str, ...] = ()  # several input sizes, "WIDTHxHEIGHT" each (parse_resolutions)


DTYPE_NAMES = ("bfloat16", "bf16", "float16", "fp16", "float32", "fp32")   # --dtype, checked without torch too


def torch_dtype(name: str):
    import torch

    table = dict(zip(DTYPE_NAMES, (torch.bfloat16, torch.bfloat16, torch.float16, torch.float16, torch.float32,
                                   torch.float32)))
    if name not in table:
        raise UserError(f"unknown dtype {name!r}; use one of {', '.join(table)}")
    return table[name]


def token_counts(opts: FluxOptions) -> tuple[int, int]:
    """(image tokens, text tokens) for a resolution: 1024x1024 -> 4096 image tokens."""
    check_size("--height/--width", opts.width, opts.height)
    step = VAE_SCALE * PATCH
    return (opts.height // step) * (opts.width // step), opts.text_len


_RESOLUTION = re.compile(r"(\d+)x(\d+)")


def check_size(option: str, width: int, height: int, name: str = "") -> None:
    """A size FLUX can take (two positive multiples of 16 pixels), else one error naming the option."""
    step = VAE_SCALE * PATCH
    if width <= 0 or height <= 0 or width % step or height % step:
        raise UserError(f"{option}: FLUX cannot take {name or f'{width}x{height}'}: width and height must be "
                        f"positive multiples of {step} pixels")


def parse_resolutions(text: str) -> list[tuple[str, int, int]]:
    """`--resolutions 1024x1024,768x1344`: (name, height, width) per size, WIDTHxHEIGHT each; a size FLUX cannot
    take (not two positive multiples of 16, listed twice, not WxH at all) is one error naming it."""
    out: list[tuple[str, int, int]] = []
    for raw in text.split(","):
        name = raw.strip()
        m = _RESOLUTION.fullmatch(name)
        if not m:
            raise UserError(f"--resolutions: {name!r} is not WIDTHxHEIGHT in pixels (e.g. 1024x1024)")
        width, height = int(m.group(1)), int(m.group(2))
        check_size("--resolutions", width, height, name)
        name = f"{width}x{height}"   # 0768x1344 and 768x1344 are one size
        if name in (n for n, _, _ in out):
            raise UserError(f"--resolutions: {name} is listed twice")
        out.append((name, height, width))
    return out


def flux_config(preset: str, opts: FluxOptions) -> dict:
    cfg = dict(FLUX_PRESETS[preset])
    if opts.double_blocks is not None:
        cfg["num_layers"] = opts.double_blocks
    if opts.single_blocks is not None:
        cfg["num_single_layers"] = opts.single_blocks
    return cfg


def import_flux_class():
    try:
        from diffusers import FluxTransformer2DModel
    except ImportError as e:
        raise UserError("the flux target needs diffusers: pip install 'inductor-prof[flux]'") from e
    return FluxTransformer2DModel


def _load_checkpoint(cls, path: Path, dtype, device: str):
    import torch

    if path.is_dir():
        sub = path / "transformer" if (path / "transformer" / "config.json").exists() else path
        if not (sub / "config.json").exists():
            raise UserError(f"{path} has no config.json (nor transformer/config.json)")
        return cls.from_pretrained(str(sub), torch_dtype=dtype, local_files_only=True).to(device)
    if path.suffix == ".safetensors":
        return None  # built from config, then loaded by build_flux
    raise UserError(f"checkpoint {path} is neither a diffusers folder nor a .safetensors file")


def flux_inputs(opts: FluxOptions, cfg: dict, dtype, device) -> dict:
    import torch

    n_img, n_txt = token_counts(opts)
    h = opts.height // (VAE_SCALE * PATCH)
    w = opts.width // (VAE_SCALE * PATCH)
    g = torch.Generator(device=device).manual_seed(0)
    img_ids = torch.zeros(h, w, 3, device=device)
    img_ids[..., 1] = torch.arange(h, device=device)[:, None]
    img_ids[..., 2] = torch.arange(w, device=device)[None, :]
    inputs = dict(
        hidden_states=torch.randn(opts.batch, n_img, cfg["in_channels"], generator=g, device=device, dtype=dtype),
        encoder_hidden_states=torch.randn(opts.batch, n_txt, cfg["joint_attention_dim"], generator=g,
                                          device=device, dtype=dtype),
        pooled_projections=torch.randn(opts.batch, cfg["pooled_projection_dim"], generator=g, device=device,
                                       dtype=dtype),
        timestep=torch.full((opts.batch,), 0.5, device=device, dtype=dtype),
        img_ids=img_ids.reshape(n_img, 3).to(dtype),
        txt_ids=torch.zeros(n_txt, 3, device=device, dtype=dtype),
        return_dict=False,
    )
    if cfg["guidance_embeds"]:
        inputs["guidance"] = torch.full((opts.batch,), opts.guidance, device=device, dtype=dtype)
    return inputs


def build_flux(preset: str, opts: FluxOptions) -> Target:
    import torch

    resolutions = parse_resolutions(",".join(opts.resolutions)) if opts.resolutions else []
    if resolutions:     # the first size is the default
        opts = replace(opts, height=resolutions[0][1], width=resolutions[0][2])
    cls = import_flux_class()
    dtype = torch_dtype(opts.dtype)
    cfg = flux_config(preset, opts)
    t0 = time.perf_counter()
    model = None
    ckpt = Path(opts.checkpoint) if opts.checkpoint else None
    if ckpt is not None:
        if not ckpt.exists():
            raise UserError(f"checkpoint {ckpt} does not exist")
        model = _load_checkpoint(cls, ckpt, dtype, opts.device)
    if model is None:
        # Built on the device in the target dtype: 11.9 B parameters initialise in about a second.
        previous = torch.get_default_dtype()
        torch.set_default_dtype(dtype)
        try:
            with torch.device(opts.device):
                model = cls(**cfg)
        finally:
            torch.set_default_dtype(previous)
        if ckpt is not None:
            from safetensors.torch import load_file

            missing, unexpected = model.load_state_dict(load_file(str(ckpt), device=opts.device), strict=False)
            if unexpected or missing:
                raise UserError(f"checkpoint {ckpt} does not match the {preset} config "
                                f"({len(missing)} missing, {len(unexpected)} unexpected keys)")
    model = model.eval().requires_grad_(False)
    build_s = time.perf_counter() - t0
    blocks = [(f"double_{i}", b) for i, b in enumerate(model.transformer_blocks)]
    blocks += [(f"single_{i}", b) for i, b in enumerate(model.single_transformer_blocks)]
    n_img, n_txt = token_counts(opts)
    inputs = flux_inputs(opts, cfg, dtype, opts.device)
    sizes = {name: ((), flux_inputs(replace(opts, height=h, width=w), cfg, dtype, opts.device) if i else inputs)
             for i, (name, h, w) in enumerate(resolutions)}
    info = {
        "preset": preset, "config": {k: list(v) if isinstance(v, tuple) else v for k, v in cfg.items()},
        "options": asdict(opts), "parameters": sum(p.numel() for p in model.parameters()),
        "image_tokens": n_img, "text_tokens": n_txt, "build_seconds": round(build_s, 3),
        "weights": str(ckpt) if ckpt else "random",
    }
    if resolutions:
        info["sizes"] = {name: {"height": h, "width": w,
                                "image_tokens": token_counts(replace(opts, height=h, width=w))[0]}
                         for name, h, w in resolutions}
    return Target(name=preset, model=model, kwargs=inputs, blocks=blocks, info=info, sizes=sizes)
