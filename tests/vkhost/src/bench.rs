//! `vkhost --bench BENCH.json RESULTS.json`: the GPU time of kernels built by several
//! producers, on the same inputs, with their outputs checked against each other
//! (bench/gpu drives it; docs/status.md shows what it measured). Each module is bound as
//! its own reflection says (src/reflect.rs).
//!
//! ```json
//! {"repeat": 20,
//!  "kernels": [{"name": "saxpy", "seed": 7, "global": [1048576], "local": [256],
//!               "args": [{"fill": {...}}, {"fill": {...}, "output": "y"}, {"bytes": [...]}],
//!               "outputs": {"y": "f32"},
//!               "producers": [{"name": "ours", "spv": "a.spv", "kernel": "saxpy"}, ...]}]}
//! ```
//!
//! Buffers live in device-local memory (filled and read through staging buffers). Each
//! producer's kernel runs once; its outputs (the arguments named in `outputs`, with their
//! element types) are compared with the first producer's that ran: bit for bit, else the
//! largest relative difference of floats (relative to the larger of the two, or to 2^-20 of
//! the output's largest magnitude where that is more: near zero a difference is absolute)
//! and the number of integers that differ. Then every producer runs for 300 ms of GPU time
//! (the device's clocks rise under load), and each is dispatched `repeat` times in five
//! rounds taken in turn, a full barrier and a timestamp after each dispatch; a dispatch's
//! time is the difference of the timestamps around it, and the median and the least of
//! those are reported, in milliseconds. Each round also times the same number of dispatches
//! as one batch, as an application runs a kernel again and again (a barrier between them,
//! timestamps only around the batch: `batch_ms`, the median of the rounds' averages), and
//! the host's clock around that batch's submission and wait (`host_ms`, per dispatch), to
//! show the two clocks agree. `--robust` enables `robustBufferAccess` (the report says so).
//! Where the driver offers VK_KHR_pipeline_executable_properties, each producer's row also
//! carries what its compiler said of the pipeline (`driver`: registers, binary size, memory,
//! in the driver's words; src/stats.rs).

use std::path::Path;

use ash::vk;
use serde_json::{json, Map, Value};

use crate::inputs::elem_size;
use crate::pipeline::Dispatches;
use crate::{field, job, one_shot, open_device_with, stats, vkerr, Device, R};

/// A producer's outputs: (name, element type, bytes).
type Outputs = Vec<(String, String, Vec<u8>)>;

pub fn run(path: &Path, out: &Path, robust: bool) -> R<bool> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let dev = open_device_with(true, robust)?;
    if dev.timestamp_bits == 0 {
        return Err(format!(
            "{} has no timestamps on its compute queue",
            dev.gpu.name
        ));
    }
    println!("device: {}", dev.gpu.name);
    let repeat = doc
        .get("repeat")
        .and_then(Value::as_u64)
        .unwrap_or(20)
        .max(1) as u32;
    let mut results = Vec::new();
    for k in field(&doc, "kernels")?
        .as_array()
        .ok_or("`kernels` is not a list")?
    {
        results.push(kernel(&dev, &dir, k, repeat)?);
    }
    let report = json!({"device": dev.gpu.name, "repeat": repeat, "robust_buffer_access": robust,
                        "kernels": results});
    std::fs::write(out, serde_json::to_vec_pretty(&report).unwrap_or_default())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(true)
}

/// Rounds the timed dispatches are split into, every producer's round in turn.
const ROUNDS: u32 = 5;
/// GPU milliseconds each producer runs before it is timed (clocks rise under load).
const WARM_MS: f64 = 300.0;

/// One kernel of the benchmark: every producer's module bound and run once (its outputs,
/// compared with the first's), warmed up, then timed in interleaved rounds so that a
/// change of the device's clocks falls on all of them alike.
fn kernel(dev: &Device, dir: &Path, k: &Value, repeat: u32) -> R<Value> {
    let name = field(k, "name")?.as_str().unwrap_or("kernel").to_string();
    let mut ready = Vec::new();
    let mut rows = Map::new();
    let mut first: Option<(String, Outputs)> = None;
    for p in field(k, "producers")?
        .as_array()
        .ok_or("`producers` is not a list")?
    {
        let producer = field(p, "name")?.as_str().unwrap_or("?").to_string();
        let mut job = k.clone();
        for key in ["spv", "kernel"] {
            job[key] = field(p, key)?.clone();
        }
        match prepare(dev, dir, &job) {
            Ok((bound, pipeline, outputs)) => {
                let agreement = match &first {
                    None => {
                        first = Some((producer.clone(), outputs));
                        "reference".to_string()
                    }
                    Some((by, want)) => format!("{} ({by})", agreement(&outputs, want)),
                };
                let stats = pipeline
                    .0
                    .iter()
                    .flat_map(|p| stats::read(dev, p.handle()))
                    .collect();
                ready.push(Ready {
                    stats,
                    producer,
                    bound,
                    pipeline,
                    agreement,
                    times: Vec::new(),
                    batches: Vec::new(),
                    host: Vec::new(),
                });
            }
            Err(e) => {
                println!("{name} {producer}: FAILED {e}");
                rows.insert(producer, json!({ "failed": e }));
            }
        }
    }
    let per_round = repeat.div_ceil(ROUNDS).max(1);
    let mut failed = None;
    for r in &ready {
        if let Err(e) = warm_up(dev, &r.pipeline) {
            failed = Some(e);
        }
    }
    for _ in 0..ROUNDS {
        for r in &mut ready {
            let ran = timed(dev, &r.pipeline, per_round).and_then(|t| {
                r.times.extend(t);
                batched(dev, &r.pipeline, per_round)
            });
            match ran {
                Ok((gpu, host)) => {
                    r.batches.push(gpu);
                    r.host.push(host);
                }
                Err(e) => failed = Some(e),
            }
        }
    }
    for r in ready {
        r.pipeline.destroy(dev);
        r.bound.free(dev);
        if !r.stats.is_empty() {
            let said: Vec<String> = r.stats.iter().map(|(k, v)| format!("{k}={v}")).collect();
            println!("{name} {} driver: {}", r.producer, said.join(", "));
        }
        let stats: Map<String, Value> =
            r.stats.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        let row = match &failed {
            Some(e) => json!({ "failed": e }),
            None => {
                let (median, least) = summary(&r.times);
                let (batch, host) = (summary(&r.batches).0, summary(&r.host).0);
                println!(
                    "{name} {}: {median:.4} ms (least {least:.4}; batched {batch:.4}, host \
                     {host:.4}), {}",
                    r.producer, r.agreement
                );
                json!({"median_ms": median, "least_ms": least, "runs": r.times.len(),
                       "batch_ms": batch, "host_ms": host, "outputs": r.agreement,
                       "driver": stats})
            }
        };
        rows.insert(r.producer, row);
    }
    if let Some(e) = failed {
        println!("{name}: FAILED {e}");
    }
    Ok(json!({"kernel": name, "producers": rows}))
}

/// A producer's module ready to run, and its times so far.
struct Ready {
    producer: String,
    /// What the driver's compiler said of the pipeline (src/stats.rs).
    stats: Vec<(String, String)>,
    bound: job::Bound,
    pipeline: Dispatches,
    agreement: String,
    /// Each dispatch's own time.
    times: Vec<f64>,
    /// Each round's batch, per dispatch: on the GPU's clock, and on the host's.
    batches: Vec<f64>,
    host: Vec<f64>,
}

/// The median and the least of `times`.
fn summary(times: &[f64]) -> (f64, f64) {
    let mut t = times.to_vec();
    t.sort_by(f64::total_cmp);
    let median = if t.is_empty() { 0.0 } else { t[t.len() / 2] };
    (median, t.first().copied().unwrap_or(0.0))
}

/// `job` bound, its pipeline, and its outputs after one run.
fn prepare(dev: &Device, dir: &Path, job: &Value) -> R<(job::Bound, Dispatches, Outputs)> {
    let bound = job::bind(dev, dir, job)?;
    let pipeline = match bound.pipelines(dev) {
        Ok(p) => p,
        Err(e) => {
            bound.free(dev);
            return Err(e);
        }
    };
    let ran =
        one_shot(dev, |cmd| pipeline.record(dev, cmd)).and_then(|()| outputs(dev, job, &bound));
    match ran {
        Ok(outs) => Ok((bound, pipeline, outs)),
        Err(e) => {
            pipeline.destroy(dev);
            bound.free(dev);
            Err(e)
        }
    }
}

/// Dispatch `p` in batches until it has run `WARM_MS` of GPU time (at most 2,000 times).
fn warm_up(dev: &Device, p: &Dispatches) -> R<()> {
    let (mut spent, mut runs) = (0.0, 0);
    while spent < WARM_MS && runs < 2000 {
        let batch = timed(dev, p, 10)?;
        spent += batch.iter().sum::<f64>();
        runs += batch.len();
    }
    Ok(())
}

/// The outputs `job` names, read back.
fn outputs(dev: &Device, job: &Value, bound: &job::Bound) -> R<Outputs> {
    let mut out = Vec::new();
    let wanted = job.get("outputs").and_then(Value::as_object);
    for (name, elem) in wanted.into_iter().flatten() {
        let elem = elem.as_str().unwrap_or("u8").to_string();
        let bytes = if let Some((b, _, len)) = bound
            .buffers
            .iter()
            .find(|(_, o, _)| o.as_deref() == Some(name.as_str()))
        {
            dev.read(b, *len)?
        } else if let Some((img, _)) = bound
            .images
            .iter()
            .find(|(_, o)| o.as_deref() == Some(name.as_str()))
        {
            dev.read_image(img)?
        } else {
            return Err(format!("no argument has the output `{name}`"));
        };
        out.push((name.clone(), elem, bytes));
    }
    Ok(out)
}

/// `repeat` dispatches of `p`, each followed by a full barrier and a timestamp: the time of
/// each, in milliseconds.
fn timed(dev: &Device, p: &Dispatches, repeat: u32) -> R<Vec<f64>> {
    let (ms, _) = dispatches(dev, p, repeat, true)?;
    Ok(ms)
}

/// `repeat` dispatches of `p` as one batch, a full barrier between them and timestamps
/// only around the batch: the time per dispatch on the GPU's clock, and on the host's
/// around the submission and its wait.
fn batched(dev: &Device, p: &Dispatches, repeat: u32) -> R<(f64, f64)> {
    let (ms, host) = dispatches(dev, p, repeat, false)?;
    let per = f64::from(repeat);
    Ok((ms.iter().sum::<f64>() / per, host / per))
}

/// `repeat` dispatches of `p` in one submission, a full barrier after each, timestamped
/// before the first and after each one (`each`) or after the last: the milliseconds between
/// consecutive timestamps, and the host's milliseconds around the submission and its wait.
fn dispatches(dev: &Device, p: &Dispatches, repeat: u32, each: bool) -> R<(Vec<f64>, f64)> {
    let d = &dev.device;
    let stamps_n = if each { repeat + 1 } else { 2 };
    let pool = unsafe {
        d.create_query_pool(
            &vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::TIMESTAMP)
                .query_count(stamps_n),
            None,
        )
    }
    .map_err(vkerr("vkCreateQueryPool"))?;
    let barrier = [vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
        .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)];
    let start = std::time::Instant::now();
    let ran = one_shot(dev, |cmd| unsafe {
        d.cmd_reset_query_pool(cmd, pool, 0, stamps_n);
        d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 0);
        for i in 1..=repeat {
            p.record(dev, cmd);
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
            if each || i == repeat {
                let at = if each { i } else { 1 };
                d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, at);
            }
        }
    });
    let host = start.elapsed().as_secs_f64() * 1e3;
    let mut stamps = vec![0u64; stamps_n as usize];
    let read = ran.and_then(|()| {
        unsafe {
            d.get_query_pool_results(
                pool,
                0,
                &mut stamps,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .map_err(vkerr("vkGetQueryPoolResults"))
    });
    unsafe { d.destroy_query_pool(pool, None) };
    read?;
    let mask = if dev.timestamp_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << dev.timestamp_bits) - 1
    };
    let ms = stamps
        .windows(2)
        .map(|w| (w[1].wrapping_sub(w[0]) & mask) as f64 * dev.timestamp_period as f64 * 1e-6)
        .collect();
    Ok((ms, host))
}

/// How `got` compares with `want` (the same outputs of another producer).
fn agreement(got: &Outputs, want: &Outputs) -> String {
    let mut largest = 0f64;
    let mut differ = 0usize;
    let mut total = 0usize;
    for ((name, elem, a), (_, _, b)) in got.iter().zip(want) {
        if a.len() != b.len() {
            return format!("{name}: {} bytes against {}", a.len(), b.len());
        }
        let size = elem_size(elem).unwrap_or(1);
        total += a.len() / size;
        // Near zero a difference counts as absolute: against 2^-20 of the largest value.
        let floor = b
            .chunks_exact(size)
            .filter_map(|x| float(elem, x))
            .filter(|x| x.is_finite())
            .fold(0f64, |m, x| m.max(x.abs()))
            * 2f64.powi(-20);
        for (x, y) in a.chunks_exact(size).zip(b.chunks_exact(size)) {
            if x == y {
                continue;
            }
            differ += 1;
            if let (Some(x), Some(y)) = (float(elem, x), float(elem, y)) {
                if x.is_nan() && y.is_nan() {
                    continue;
                }
                let scale = x.abs().max(y.abs()).max(floor).max(f64::MIN_POSITIVE);
                let d = (x - y).abs() / scale;
                largest = largest.max(if d.is_nan() { f64::INFINITY } else { d });
            }
        }
    }
    if differ == 0 {
        "same".into()
    } else if largest > 0.0 {
        format!("{differ} of {total} differ, by at most {largest:.2e} relative")
    } else {
        format!("{differ} of {total} differ")
    }
}

/// An element's value where it is a float.
fn float(elem: &str, b: &[u8]) -> Option<f64> {
    match elem {
        "f32" => Some(f32::from_le_bytes(b.try_into().ok()?) as f64),
        "f64" => Some(f64::from_le_bytes(b.try_into().ok()?)),
        "f16" => {
            let h = u16::from_le_bytes(b.try_into().ok()?);
            let (s, e, m) = ((h >> 15) as i32, ((h >> 10) & 31) as i32, (h & 1023) as f64);
            let v = match e {
                0 => m * 2f64.powi(-24),
                31 if m == 0.0 => f64::INFINITY,
                31 => f64::NAN,
                _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
            };
            Some(if s == 1 { -v } else { v })
        }
        _ => None,
    }
}
