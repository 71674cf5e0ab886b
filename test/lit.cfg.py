# -*- Python -*- lit configuration for tile's tests.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

llvm_config.use_default_substitutions()
config.substitutions.append(("%examples", os.path.join(config.tile_src_root, "examples")))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%python", config.python_executable or "python3"))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.tile_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["tile-opt", "tilec", "tile-bench", "tile-fuzz-programs"], tool_dirs)

# `ptxas` (CUDA toolkit) validates generated PTX where it is installed.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
