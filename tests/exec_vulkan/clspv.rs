//! clspv, the peer Vulkan producer (PyPI `pyclspv`, clspv built into the wheel): a kernel's
//! OpenCL C source compiled with clspv's default options. vkhost binds its module as the
//! module's own reflection says, as it binds ours.

use std::path::Path;
use std::process::Command;

/// The Python that has `pyclspv` (.ci/run installs it into .oracles/venv).
fn python() -> String {
    std::env::var("PYCLSPV_PYTHON").unwrap_or_else(|_| ".oracles/venv/bin/python".into())
}

/// clspv's module for an OpenCL C source file, or why clspv refused it.
pub fn compile(source: &Path, out: &Path) -> Result<(), String> {
    let script = "import sys, pyclspv\n\
                  src = open(sys.argv[1]).read()\n\
                  open(sys.argv[2], 'wb').write(pyclspv.compile(src, False))\n";
    // clspv loops forever on some inputs (constant_tables): a minute is plenty.
    let run = Command::new("timeout")
        .arg("60")
        .arg(python())
        .args(["-c", script])
        .arg(source)
        .arg(out)
        .output()
        .map_err(|e| format!("{}: {e} (install pyclspv, see .ci/run)", python()))?;
    if run.status.success() && out.exists() {
        Ok(())
    } else if run.status.code() == Some(124) {
        Err("clspv did not finish within a minute".into())
    } else {
        let err = String::from_utf8_lossy(&run.stderr);
        let line = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("clspv failed")
            .to_string();
        Err(line)
    }
}
