//! The tokio runtime that drives every endpoint and connection of this addon.
//!
//! One worker per core, as napi-rs would, but named and overridable: each connection's quinn
//! driver is a single task, so on a busy machine fewer workers mean fewer cross-thread wake-ups
//! (set PCC_QUIC_WORKER_THREADS to compare; the send-rate benchmark prints the effect).

fn default_worker_threads() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}

fn worker_threads() -> usize {
    std::env::var("PCC_QUIC_WORKER_THREADS")
        .ok()
        .and_then(|value| value.parse::<usize>().ok())
        .filter(|&threads| (1..=64).contains(&threads))
        .unwrap_or_else(default_worker_threads)
}

#[napi_derive::module_init]
fn init_runtime() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(worker_threads())
        .thread_name("pcc-quic")
        .enable_all()
        .build();
    // On failure napi-rs falls back to its own default runtime.
    if let Ok(runtime) = runtime {
        napi::bindgen_prelude::create_custom_tokio_runtime(runtime);
    }
}
