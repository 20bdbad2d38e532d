"""A UNet-like convolutional network, as a `module:factory` target (profile it whole: `--whole-model`):

    inductor-prof profile examples.models.convnet:unet --whole-model --ncu --out runs/unet

Latent-diffusion shaped (4 channels in and out, 64 x 64 latents, batch 8), bf16, random weights: residual
blocks of GroupNorm, SiLU and 3x3 convolutions at 128, 256 and 512 channels; 3x3 stride-2 convolutions down
and 4x4 stride-2 transposed convolutions up, skip connections concatenated; the middle block has a dilated
convolution and a grouped (depthwise-separable style, 32 groups) one, so every convolution form a UNet or a
ResNet uses is in one step. No attention: the profile's attention stage has nothing to time.
"""
from __future__ import annotations

CHANNELS = (128, 256, 512)
BATCH, LATENT, SIZE = 8, 4, 64


def _modules():
    import torch.nn as nn

    class ResBlock(nn.Module):
        def __init__(self, cin: int, cout: int, dilation: int = 1, groups: int = 1):
            super().__init__()
            self.norm1, self.norm2 = nn.GroupNorm(32, cin), nn.GroupNorm(32, cout)
            self.conv1 = nn.Conv2d(cin, cout, 3, padding=dilation, dilation=dilation)
            self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, groups=groups)
            self.act = nn.SiLU()
            self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

        def forward(self, x):
            h = self.conv1(self.act(self.norm1(x)))
            h = self.conv2(self.act(self.norm2(h)))
            return h + self.skip(x)

    class UNet(nn.Module):
        def __init__(self, channels=CHANNELS, latent: int = LATENT):
            super().__init__()
            c0, c1, c2 = channels
            self.conv_in = nn.Conv2d(latent, c0, 3, padding=1)
            self.down0, self.pool0 = ResBlock(c0, c0), nn.Conv2d(c0, c0, 3, stride=2, padding=1)
            self.down1, self.pool1 = ResBlock(c0, c1), nn.Conv2d(c1, c1, 3, stride=2, padding=1)
            self.mid = nn.Sequential(ResBlock(c1, c2, dilation=2), ResBlock(c2, c2, groups=32))
            self.up1 = nn.ConvTranspose2d(c2, c1, 4, stride=2, padding=1)
            self.dec1 = ResBlock(2 * c1, c1)
            self.up0 = nn.ConvTranspose2d(c1, c0, 4, stride=2, padding=1)
            self.dec0 = ResBlock(2 * c0, c0)
            self.norm_out, self.act = nn.GroupNorm(32, c0), nn.SiLU()
            self.conv_out = nn.Conv2d(c0, latent, 3, padding=1)

        def forward(self, x):
            import torch

            s0 = self.down0(self.conv_in(x))
            s1 = self.down1(self.pool0(s0))
            h = self.mid(self.pool1(s1))
            h = self.dec1(torch.cat([self.up1(h), s1], dim=1))
            h = self.dec0(torch.cat([self.up0(h), s0], dim=1))
            return self.conv_out(self.act(self.norm_out(h)))

    return UNet


def build(batch: int = BATCH, size: int = SIZE, channels=CHANNELS, device: str = "cuda", dtype=None):
    """(UNet, (latents,)) on `device` in `dtype` (bf16); the tests build a small one on the CPU."""
    import torch

    dtype = dtype or torch.bfloat16
    with torch.device(device):
        model = _modules()(channels).to(dtype).eval().requires_grad_(False)
    gen = torch.Generator(device="cpu").manual_seed(0)
    x = torch.randn(batch, LATENT, size, size, generator=gen).to(device=device, dtype=dtype)
    return model, (x,)


def unet():
    """8 latents of 4 x 64 x 64, channels 128/256/512."""
    return build()
