"""The deck worker's judging (partyhub/decks/pictures.py), in process and as the worker process."""
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from PIL import Image

from partyhub.decks import pictures
from tests.security.files import flat_png, lying_zip

ROOT = Path(__file__).resolve().parents[2]
LIMITS = pictures.Limits(deck_pixels=600_000_000, size=(6, 9))


def jpeg(size, comment_bytes=0) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (90, 10, 10)).save(buf, "JPEG")
    data = buf.getvalue()
    segments = b"".join(b"\xff\xfe" + (65533 + 2).to_bytes(2, "big") + b"c" * 65533
                        for _ in range(comment_bytes // 65533))
    return data[:2] + segments + data[2:]   # COM segments before the frame header


def judge(tmp_path, files: dict, limits=LIMITS) -> dict:
    paths = []
    for n, (label, data) in enumerate(files.items()):
        path = tmp_path / f"in{n}"
        path.write_bytes(data)
        paths.append((label, str(path)))
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    return pictures.judge(paths, limits, out)


def test_a_jpeg_counts_the_pixels_it_is_decoded_at(tmp_path):
    big = jpeg((4000, 3000))
    path = tmp_path / "a.jpg"
    path.write_bytes(big)
    c = pictures.Candidate(1, "a.jpg", pictures._file_reader(str(path)))
    limits = pictures.Limits(deck_pixels=1, size=(600, 900))
    assert pictures.probe(c, limits) == 2000 * 1500   # drafted at 1/2: 3000 // 900 == 3


def test_a_header_longer_than_the_probe_is_read_whole(tmp_path):
    long_head = jpeg((30, 20), comment_bytes=4 * 65533)
    assert len(long_head) > pictures.PROBE_BYTES
    got = judge(tmp_path, {"long.jpg": long_head})
    assert got == {"cards": 1, "rejected": [], "refused": None}


def test_over_the_decks_pixels_the_upload_is_refused_whole_before_decoding(tmp_path):
    limits = pictures.Limits(deck_pixels=2 * 2000 * 2000 - 1, size=(6, 9))
    files = {"a.png": flat_png(2000, 2000), "b.png": flat_png(2000, 2000), "c.txt": b"text"}
    got = judge(tmp_path, files, limits)
    assert got["refused"] == {"code": "deck_too_many_pixels", "pixels": 2 * 2000 * 2000}
    assert got["cards"] == 0 and not any((tmp_path / "out").iterdir())
    assert judge(tmp_path, {"a.png": flat_png(2000, 2000)}, limits)["cards"] == 1


def test_rejections_come_in_upload_order_whatever_the_pass(tmp_path):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("x.gif", b"GIF89a")
        z.writestr("../up.png", b"")
    got = judge(tmp_path, {"1.txt": b"no", "2.zip": archive.getvalue(), "3.png": flat_png(100, 100),
                           "4.zip": lying_zip(5000)})
    assert [r["file"] for r in got["rejected"]] == ["1.txt", "2.zip/x.gif", "2.zip/../up.png", "4.zip"]
    assert got["cards"] == 1


def test_the_worker_limits_its_own_memory(tmp_path):
    """A 40-million-pixel picture needs some 300 MB to decode: under 200 MB of address
    space the worker refuses it as broken and goes on with the rest."""
    (tmp_path / "out").mkdir()
    (tmp_path / "big.png").write_bytes(flat_png(8000, 5000))
    (tmp_path / "small.png").write_bytes(flat_png(300, 200))
    job = pictures.job(LIMITS, [("big.png", str(tmp_path / "big.png")),
                                ("small.png", str(tmp_path / "small.png"))],
                       tmp_path / "out", memory_bytes=200 * 1024 * 1024, cpu_seconds=20)
    done = subprocess.run([sys.executable, "-m", "partyhub.decks.pictures"], input=job, cwd=ROOT,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    got = json.loads(done.stdout)
    assert got["cards"] == 1
    assert [(r["file"], r["code"]) for r in got["rejected"]] == [("big.png", "broken_image")]
