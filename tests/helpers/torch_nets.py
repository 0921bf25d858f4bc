"""Torchvision-like nets built by hand in torch (torchvision is not installed beside torch here) and exported to ONNX
the way torchvision models are: Conv-BatchNorm-ReLU stems, residual blocks, inverted residuals with ReLU6, fire
modules, channel shuffles, squeeze-excite with Hardsigmoid and Hardswish. torch is imported only when a net is built
(the real-models extra installs it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

NAMES = ("resnetish", "mobilenetv2ish", "mobilenetv3ish", "squeezenetish", "vggish", "shufflenetish")


def _nets() -> dict[str, tuple[Any, int]]:
    import torch
    from torch import nn

    def conv_bn(i: int, o: int, k: int = 3, s: int = 1, g: int = 1, act: Any = nn.ReLU) -> Any:
        return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(o), act())

    class Basic(nn.Module):  # type: ignore[misc]
        def __init__(self, i: int, o: int, s: int) -> None:
            super().__init__()
            self.a = conv_bn(i, o, 3, s)
            self.b = nn.Sequential(nn.Conv2d(o, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o))
            self.down = nn.Sequential(nn.Conv2d(i, o, 1, s, bias=False), nn.BatchNorm2d(o)) \
                if s != 1 or i != o else nn.Identity()
            self.relu = nn.ReLU()

        def forward(self, x: Any) -> Any:
            return self.relu(self.b(self.a(x)) + self.down(x))

    class ResNetish(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(conv_bn(3, 16, 7, 2), nn.MaxPool2d(3, 2, 1))
            self.layers = nn.Sequential(Basic(16, 16, 1), Basic(16, 32, 2), Basic(32, 64, 2))
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(64, 10)

        def forward(self, x: Any) -> Any:
            return self.fc(torch.flatten(self.pool(self.layers(self.stem(x))), 1))

    class InvertedResidual(nn.Module):  # type: ignore[misc]
        def __init__(self, i: int, o: int, s: int, t: int) -> None:
            super().__init__()
            h = i * t
            self.conv = nn.Sequential(conv_bn(i, h, 1, act=nn.ReLU6), conv_bn(h, h, 3, s, g=h, act=nn.ReLU6),
                                      nn.Conv2d(h, o, 1, bias=False), nn.BatchNorm2d(o))
            self.residual = s == 1 and i == o

        def forward(self, x: Any) -> Any:
            return x + self.conv(x) if self.residual else self.conv(x)

    class MobileNetV2ish(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.f = nn.Sequential(conv_bn(3, 16, 3, 2, act=nn.ReLU6), InvertedResidual(16, 16, 1, 1),
                                   InvertedResidual(16, 24, 2, 4), InvertedResidual(24, 24, 1, 4),
                                   conv_bn(24, 64, 1, act=nn.ReLU6))
            self.c = nn.Sequential(nn.Dropout(0.2), nn.Linear(64, 10))

        def forward(self, x: Any) -> Any:
            return self.c(nn.functional.adaptive_avg_pool2d(self.f(x), 1).flatten(1))

    class Fire(nn.Module):  # type: ignore[misc]
        def __init__(self, i: int, squeeze: int, expand: int) -> None:
            super().__init__()
            self.s = nn.Sequential(nn.Conv2d(i, squeeze, 1), nn.ReLU())
            self.e1 = nn.Sequential(nn.Conv2d(squeeze, expand, 1), nn.ReLU())
            self.e3 = nn.Sequential(nn.Conv2d(squeeze, expand, 3, padding=1), nn.ReLU())

        def forward(self, x: Any) -> Any:
            x = self.s(x)
            return torch.cat([self.e1(x), self.e3(x)], 1)

    class SqueezeNetish(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.f = nn.Sequential(nn.Conv2d(3, 32, 3, 2), nn.ReLU(), nn.MaxPool2d(3, 2, ceil_mode=True),
                                   Fire(32, 8, 16), Fire(32, 8, 16), nn.MaxPool2d(3, 2, ceil_mode=True),
                                   Fire(32, 16, 32))
            self.c = nn.Sequential(nn.Dropout(0.5), nn.Conv2d(64, 10, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))

        def forward(self, x: Any) -> Any:
            return torch.flatten(self.c(self.f(x)), 1)

    class VGGish(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.f = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2),
                                   nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2))
            self.c = nn.Sequential(nn.Linear(16 * 8 * 8, 32), nn.ReLU(), nn.Dropout(), nn.Linear(32, 10))

        def forward(self, x: Any) -> Any:
            return self.c(torch.flatten(self.f(x), 1))

    class Shuffle(nn.Module):  # type: ignore[misc]
        def __init__(self, c: int) -> None:
            super().__init__()
            self.b = nn.Sequential(conv_bn(c, c, 1), nn.Conv2d(c, c, 3, 1, 1, groups=c, bias=False),
                                   nn.BatchNorm2d(c), conv_bn(c, c, 1))

        def forward(self, x: Any) -> Any:
            a, b = x.chunk(2, dim=1)
            y = torch.cat([a, self.b(b)], 1)
            n, c, h, w = y.shape
            return y.view(n, 2, c // 2, h, w).transpose(1, 2).reshape(n, c, h, w)

    class ShuffleNetish(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.stem = conv_bn(3, 16, 3, 2)
            self.blocks = nn.Sequential(Shuffle(8), Shuffle(8))
            self.fc = nn.Linear(16, 10)

        def forward(self, x: Any) -> Any:
            return self.fc(self.blocks(self.stem(x)).mean([2, 3]))

    class SqueezeExcite(nn.Module):  # type: ignore[misc]
        def __init__(self, c: int) -> None:
            super().__init__()
            self.f = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(c, c // 4, 1), nn.ReLU(),
                                   nn.Conv2d(c // 4, c, 1), nn.Hardsigmoid())

        def forward(self, x: Any) -> Any:
            return x * self.f(x)

    class MobileNetV3ish(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.f = nn.Sequential(conv_bn(3, 16, 3, 2, act=nn.Hardswish),
                                   conv_bn(16, 16, 3, 1, g=16, act=nn.Hardswish),
                                   SqueezeExcite(16), conv_bn(16, 32, 1, act=nn.Hardswish))
            self.c = nn.Sequential(nn.Linear(32, 16), nn.Hardswish(), nn.Linear(16, 10))

        def forward(self, x: Any) -> Any:
            return self.c(torch.flatten(nn.functional.adaptive_avg_pool2d(self.f(x), 1), 1))

    return {"resnetish": (ResNetish, 64), "mobilenetv2ish": (MobileNetV2ish, 64),
            "mobilenetv3ish": (MobileNetV3ish, 32), "squeezenetish": (SqueezeNetish, 64), "vggish": (VGGish, 32),
            "shufflenetish": (ShuffleNetish, 32)}


def export(name: str, folder: Path, seed: int = 0) -> Path:
    """`name` (one of NAMES) exported to `folder/name.onnx` at opset 17 with seeded random weights and BatchNorm
    statistics."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    cls, size = _nets()[name]
    net = cls().eval()
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)
    path = folder / f"{name}.onnx"
    torch.onnx.export(net, (torch.randn(1, 3, size, size),), str(path), opset_version=17, input_names=["input"],
                      output_names=["output"], dynamo=False)
    return path
