"""How the library is found, the version check, and the build hook (in subprocesses)."""

import glob
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

import gpuk
from gpuk import _lib

PYDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = os.path.dirname(PYDIR)
IN_TREE = os.path.exists(os.path.join(TOP, "configure.ac"))


def run(code, env_changes, path=PYDIR):
    env = {k: v for k, v in os.environ.items() if k not in ("GPUK_LIBRARY", "PKG_CONFIG_PATH")}
    env.update({k: v for k, v in env_changes.items() if v is not None})
    env["PYTHONPATH"] = path
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          cwd="/")


def test_gpuk_library_may_name_the_folder():
    r = run("import gpuk, gpuk._lib as L; print(L.found_by, L.path)",
            {"GPUK_LIBRARY": os.path.dirname(_lib.path)})
    assert r.returncode == 0, r.stderr
    assert "GPUK_LIBRARY" in r.stdout


def test_gpuk_library_that_does_not_load():
    r = run("import gpuk", {"GPUK_LIBRARY": "/nonexistent/libgpuk.so"})
    assert r.returncode != 0
    assert "GPUK_LIBRARY=/nonexistent/libgpuk.so cannot be loaded" in r.stderr


def test_found_through_pkg_config(tmp_path):
    if not shutil.which("pkg-config"):
        pytest.skip("no pkg-config")
    libdir = os.path.dirname(_lib.path)
    (tmp_path / "gpuk.pc").write_text(
        "libdir=%s\nincludedir=/usr/include\n\nName: gpuk\nDescription: test\nVersion: %s\n"
        "Libs: -L${libdir} -lgpuk\nCflags: -I${includedir}\n" % (libdir, gpuk.version()))
    r = run("import gpuk, gpuk._lib as L; print(L.found_by); print(L.path)",
            {"PKG_CONFIG_PATH": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    found_by, path = r.stdout.split("\n")[:2]
    assert found_by.startswith("pkg-config libdir") and os.path.dirname(path) == libdir


def _copy_package(tmp_path, version):
    dst = tmp_path / "pkg"
    shutil.copytree(os.path.join(PYDIR, "gpuk"), dst / "gpuk",
                    ignore=shutil.ignore_patterns("__pycache__", "_version.py"))
    (dst / "gpuk" / "_version.py").write_text('__version__ = "%s"\n' % version)
    return str(dst)


def test_version_checked_at_import(tmp_path):
    path = _copy_package(tmp_path, "9.9.0")
    r = run("import gpuk", {"GPUK_LIBRARY": _lib.path}, path)
    assert r.returncode != 0
    assert "gpuk 9.9.0 is the package of libgpuk 9.9.x" in r.stderr and gpuk.version() in r.stderr
    r = run("import gpuk; print(gpuk.__version__)",
            {"GPUK_LIBRARY": _lib.path, "GPUK_SKIP_VERSION_CHECK": "1"}, path)
    assert r.returncode == 0 and r.stdout.strip() == "9.9.0"
    ok = _copy_package(tmp_path / "b", gpuk.version().rsplit(".", 1)[0] + ".99")
    r = run("import gpuk", {"GPUK_LIBRARY": _lib.path}, ok)
    assert r.returncode == 0, r.stderr                       # another patch level is fine


def _pip_ok():
    import importlib.util
    return all(importlib.util.find_spec(m) for m in ("pip", "setuptools", "wheel"))


def _fake_repo(tmp_path):
    """python/ with ../configure.ac and ../include/gpuk.h, as in the repository."""
    repo = tmp_path / "repo"
    shutil.copytree(PYDIR, repo / "python", ignore=shutil.ignore_patterns(
        "__pycache__", "_version.py", "build", "dist", "*.egg-info", ".pytest_cache"))
    (repo / "include").mkdir()
    shutil.copy(os.path.join(TOP, "configure.ac"), repo / "configure.ac")
    shutil.copy(os.path.join(TOP, "include", "gpuk.h"), repo / "include" / "gpuk.h")
    return repo


@pytest.mark.skipif(not IN_TREE or not _pip_ok(), reason="needs the source tree, pip, wheel")
def test_wheel_takes_the_library_version(tmp_path):
    repo = _fake_repo(tmp_path)
    out = tmp_path / "wheels"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                        "-q", "-w", str(out), str(repo / "python")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    (whl,) = glob.glob(str(out / "gpuk-*.whl"))
    assert os.path.basename(whl).startswith("gpuk-%s-" % gpuk.version())
    with zipfile.ZipFile(whl) as z:
        text = z.read("gpuk/_version.py").decode()
        assert '__version__ = "%s"' % gpuk.version() in text
        assert "gpuk/py.typed" in z.namelist()


@pytest.mark.skipif(not IN_TREE or not _pip_ok(), reason="needs the source tree, pip, wheel")
def test_sdist_carries_the_version(tmp_path):
    repo = _fake_repo(tmp_path)
    r = subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path / "dist")],
                       cwd=repo / "python", capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    (sdist,) = glob.glob(str(tmp_path / "dist" / "gpuk-*.tar.gz"))
    away = tmp_path / "away"
    with tarfile.open(sdist) as t:
        t.extractall(away)
    (src,) = glob.glob(str(away / "gpuk-*"))
    with open(os.path.join(src, "gpuk", "_version.py")) as f:
        assert '__version__ = "%s"' % gpuk.version() in f.read()
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                        "-q", "-w", str(tmp_path / "w"), src], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert glob.glob(str(tmp_path / "w" / ("gpuk-%s-*.whl" % gpuk.version())))


@pytest.mark.skipif(not IN_TREE, reason="needs the source tree")
def test_build_outside_the_repository_fails_clearly(tmp_path):
    shutil.copytree(PYDIR, tmp_path / "python", ignore=shutil.ignore_patterns(
        "__pycache__", "_version.py", "build", "*.egg-info"))
    r = subprocess.run([sys.executable, "setup.py", "--version"], cwd=tmp_path / "python",
                       capture_output=True, text=True)
    assert r.returncode != 0 and "cannot find the libgpuk version" in r.stderr
