//! The tokio runtime that drives every endpoint and connection of this addon.
//!
//! One worker per core but one, leaving a core to the JavaScript thread that feeds it, and at least
//! one; named and overridable (PCC_QUIC_WORKER_THREADS; the send-rate benchmark prints the effect).
//! Each connection's quinn driver is a single task: a second worker buys it nothing and costs
//! cross-thread wake-ups (futex, a context switch) between the endpoint driver, the connection
//! driver and the datagram reader, which on a 2-core machine took the CPU the sender needed.

fn default_worker_threads() -> usize {
    workers_for_cores(std::thread::available_parallelism().map_or(1, usize::from))
}

/// The JavaScript thread keeps one core busy: the runtime gets the others, at least one.
fn workers_for_cores(cores: usize) -> usize {
    cores.saturating_sub(1).max(1)
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

#[cfg(test)]
mod tests {
    use super::workers_for_cores;

    #[test]
    fn leaves_a_core_to_javascript_and_keeps_one_worker() {
        assert_eq!(workers_for_cores(1), 1);
        assert_eq!(workers_for_cores(2), 1);
        assert_eq!(workers_for_cores(8), 7);
    }
}
