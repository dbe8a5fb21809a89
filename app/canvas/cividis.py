"""The cividis colour map (colour-blind safe, perceptually uniform) as 256 RGB entries.

Baked from ``pyqtgraph.colormap.get("cividis").getLookupTable(0, 1, 256)`` so that painting a
frame does not import pyqtgraph (a quarter of a second of every command-line export); a test
checks the two still agree.
"""

from __future__ import annotations

import numpy as np

_HEX = (
    "00204d00214e00225000225200235300245500255700255800265a00275c00275e002860002961002a63"
    "002a65002b67002c69002c6a002d6c002e6e002e6f002f6f002f6f00306f00306f00316f00326f00336f"
    "00336f00346f00356e01366e06366e0b376e0f386e12386d15396d183a6d1a3b6d1d3b6d1f3c6d213d6d"
    "233e6c243e6c263f6c28406c2a406c2b416c2d426c2e436c30436c31446b32456b34456b35466b36476b"
    "38486b39486b3a496b3b4a6b3d4a6b3e4b6b3f4c6b404d6b414d6b424e6b434f6b444f6b46506b47516b"
    "48526b49526b4a536b4b546c4c546c4d556c4e566c4f576c50576c51586c52596c53596c545a6c555b6d"
    "565c6d575c6d585d6d595e6d595f6d5a5f6d5b606e5c616e5d616e5e626e5f636e60646f61646f62656f"
    "63666f64666f646770656870666970676970686a71696b716a6c716b6c716c6d726c6e726d6e726e6f73"
    "6f70737071737171747272747273747374757474757575757676767777767877777878777979777a7a78"
    "7b7a787c7b787d7c787e7d787f7d78807e79817f79828079838079848179848279858379868379878479"
    "8885798986798a87798b87798c88798d89798e8a798f8a79908b79918c78928d78938e78948e78958f78"
    "9690789791789892789992789a93779b94779c95779d96779e96779f9777a09877a19976a29a76a39a76"
    "a49b76a59c76a69d75a89e75a99f75aa9f75aba074aca174ada274aea374afa473b0a473b1a573b2a672"
    "b3a772b4a872b5a971b6a971b7aa71b8ab70b9ac70baad70bbae6fbcaf6fbeaf6fbfb06ec0b16ec1b26d"
    "c2b36dc3b46dc4b56cc5b56cc6b66bc7b76bc8b86ac9b96acbba69ccbb69cdbc68cebc68cfbd67d0be67"
    "d1bf66d2c066d3c165d4c264d6c364d7c463d8c563d9c562dac661dbc761dcc860ddc95fdeca5fe0cb5e"
    "e1cc5de2cd5ce3ce5ce4cf5be5d05ae6d159e8d259e9d358ead357ebd456ecd555edd654efd753f0d852"
    "f1d951f2da50f3db4ff4dc4ef6dd4df7de4cf8df4bf9e04afae149fbe248fde346fee445ffe544ffe642"
    "ffe742ffe843ffe944ffea46"
)

CIVIDIS: np.ndarray = np.frombuffer(bytes.fromhex(_HEX), dtype=np.uint8).reshape(256, 3)
"""256 × 3 uint8: the colour for a value at fraction k / 255 of its range."""
CIVIDIS.flags.writeable = False

CIVIDIS_ARGB: np.ndarray = (np.uint32(0xFF) << 24 | CIVIDIS[:, 0].astype(np.uint32) << 16
                            | CIVIDIS[:, 1].astype(np.uint32) << 8
                            | CIVIDIS[:, 2].astype(np.uint32))
"""The same 256 colours as opaque ``0xAARRGGBB`` pixels (an image is one lookup per cell)."""
CIVIDIS_ARGB.flags.writeable = False
