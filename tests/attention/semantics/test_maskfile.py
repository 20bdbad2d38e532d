"""attention/semantics/maskfile.py: the saved mask file read back as a bool tensor."""
import torch
from inductor_prof.attention.semantics import maskfile


def test_mask_file_loads_as_a_bool_tensor(tmp_path):
    keep = torch.tensor([[[[True, False, True], [False, False, True]]]])
    maskfile.save(keep, tmp_path / "m.npz")
    got = maskfile.load(tmp_path / "m.npz")
    assert got.dtype == torch.bool and got.tolist() == keep.tolist()
