//! What the machine must offer a window, and one clear sentence when it does not.

/// Said when there is no display to open a window on.
pub const NO_DISPLAY: &str = "warbound: no display to open a window on; run it under a virtual display \
with `xvfb-run -a -s \"-screen 0 1280x720x24\" warbound`, or use `warbound --headless` for no window.";

/// Said when no graphics adapter can be found.
pub const NO_GPU: &str = "warbound: no graphics adapter found; install a Vulkan driver \
(on Debian/Ubuntu `apt-get install mesa-vulkan-drivers` gives software rendering), or use `warbound --headless`.";

/// Why a window cannot be opened here, if that is already known before trying.
pub fn display_problem() -> Option<&'static str> {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return None;
    }
    // Only X11 is built in (see docs/platform.md), so DISPLAY must name a server.
    let display = std::env::var("DISPLAY").unwrap_or_default();
    let display = display.trim();
    if display.is_empty() {
        return Some(NO_DISPLAY);
    }
    // A local display ":N" or ":N.S" has a socket; a missing socket means no server.
    if let Some(number) = display.strip_prefix(':') {
        let number = number.split('.').next().unwrap_or_default();
        let socket = std::path::Path::new("/tmp/.X11-unix").join(format!("X{number}"));
        if !number.is_empty() && !socket.exists() {
            return Some(NO_DISPLAY);
        }
    }
    None
}

/// Replaces the panic report for the failures a player can fix (no display
/// server, no GPU) with one sentence and exit code 1; other panics keep the
/// usual report.
pub fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        let known = if message.contains("Unable to find a GPU") || message.contains("Failed to create wgpu surface") {
            Some(NO_GPU)
        } else if message.contains("event loop") || message.contains("XOpenDisplay") || message.contains("open display")
        {
            Some(NO_DISPLAY)
        } else {
            None
        };
        match known {
            Some(sentence) => {
                eprintln!("{sentence}");
                std::process::exit(1);
            }
            None => default(info),
        }
    }));
}
