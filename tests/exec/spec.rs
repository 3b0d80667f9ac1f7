//! `//@exec` lines in tests/kernels/*.cl: how to run a kernel and which arguments to compare.
//!
//! ```text
//! //@exec NAME global=G[,G,G] [local=L[,L,L]] ARG...
//!   in:TY[N][=LO..HI]   global buffer of N elements filled with deterministic values
//!   io:TY[N][=LO..HI]   as `in`, and compared after the run
//!   out:TY[N]           zero-filled global buffer, compared after the run
//!   local:TY[N]         __local buffer of N elements
//!   TY=V[,V...]         scalar (or vector of TY) by value
//!   imgKd:ro|wo|rw:CH:WxH[xD]   RGBA image, CH = f32 | i32 | u32 | un8, or a CL_DEPTH float
//!                        image (CH = depth); `wo` and `rw` images are compared, `ro` and `rw`
//!                        ones start filled
//!   imgKa:ro:CH:W[xH]xN      an array of N 1D (K = 1) or 2D (K = 2) images
//!   sampler:N|U:none|edge|clamp|repeat|mirror:nearest|linear
//!   pipe:BYTES[N]       a pipe of N packets of BYTES bytes (clCreatePipe)
//!   devqueue            (not an argument) the context gets a default on-device queue
//!                       first, for kernels that enqueue kernels
//! //@then NAME global=G[,G,G] [local=L[,L,L]] ARG...
//!   runs after the `//@exec` line above it (and any `//@then` between), in the same run:
//!   ARG as above, or `arg:K` for the K-th argument made so far (the `//@exec` line's
//!   arguments first, then each `//@then` line's new ones in order): the same object, as
//!   an application keeps a buffer one kernel writes for the next to read (or a pipe).
//!   Every compared argument of every step is compared once all steps have run.
//! TY = i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64
//! ```
//!
//! A `//@std CLx.y` line says which OpenCL C the source is written in (CL1.2 without one):
//! tests/kernels/generate.sh compiles it so, and the tiers build the reference so (`cl::cl_std`);
//! an `//@options OPTION...` line, the build options the source is written for
//! (`-cl-fast-relaxed-math`), likewise (`cl::build_options`).
use super::cl::{Arg, Device, ImageFormat, MemHandle};
use super::common::Rng;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Elem {
    I(u32, bool), // bytes, signed
    F16,
    F32,
    F64,
}

impl Elem {
    fn parse(s: &str) -> Result<Elem, String> {
        Ok(match s {
            "i8" => Elem::I(1, true),
            "u8" => Elem::I(1, false),
            "i16" => Elem::I(2, true),
            "u16" => Elem::I(2, false),
            "i32" => Elem::I(4, true),
            "u32" => Elem::I(4, false),
            "i64" => Elem::I(8, true),
            "u64" => Elem::I(8, false),
            "f16" => Elem::F16,
            "f32" => Elem::F32,
            "f64" => Elem::F64,
            _ => return Err(format!("unknown element type `{s}`")),
        })
    }
    fn size(self) -> usize {
        match self {
            Elem::I(b, _) => b as usize,
            Elem::F16 => 2,
            Elem::F32 => 4,
            Elem::F64 => 8,
        }
    }
}

/// The OpenCL host API's `cl_filter_mode` values (a `Sampler` argument's `filter`).
pub const FILTER_NEAREST: u32 = 0x1140;
pub const FILTER_LINEAR: u32 = 0x1141;

#[derive(Debug, Clone)]
pub enum ArgSpec {
    Buffer {
        elem: Elem,
        count: usize,
        fill: bool,
        compare: bool,
        range: Option<(f64, f64)>,
    },
    Local(usize),
    Scalar(Vec<u8>),
    Image {
        dims: [usize; 3],
        rank: usize,
        /// The number of images of an image array (`None`: not an array).
        array: Option<usize>,
        /// An `image1d_buffer_t` (`img1b`): made from a buffer holding its texels.
        buffer: bool,
        /// Starts filled with values (`ro`, `rw`).
        read: bool,
        /// Compared after the run (`wo`, `rw`).
        write: bool,
        channel: String,
    },
    Sampler {
        normalized: bool,
        addressing: u32,
        filter: u32,
    },
    Pipe {
        packet: usize,
        count: usize,
    },
}

/// A kernel run after the first one of a spec (a `//@then` line): its arguments are indices
/// into the spec's `args`.
#[derive(Debug, Clone)]
pub struct Step {
    pub kernel: String,
    pub global: Vec<usize>,
    pub local: Option<Vec<usize>>,
    pub args: Vec<usize>,
}

#[derive(Debug, Clone)]
pub struct ExecSpec {
    pub kernel: String,
    pub global: Vec<usize>,
    pub local: Option<Vec<usize>>,
    /// Every argument of every step: the first kernel's first (`first_args` of them), then
    /// the ones the `then` steps add.
    pub args: Vec<ArgSpec>,
    pub first_args: usize,
    pub then: Vec<Step>,
    /// The context needs a default on-device queue (`devqueue`).
    pub device_queue: bool,
}

/// One kernel run of a spec: (kernel, global size, local size, argument indices).
pub type StepRef<'a> = (&'a str, &'a [usize], Option<&'a [usize]>, Vec<usize>);

impl ExecSpec {
    /// Every kernel run in order.
    pub fn steps(&self) -> Vec<StepRef<'_>> {
        let mut v = vec![(
            self.kernel.as_str(),
            &self.global[..],
            self.local.as_deref(),
            (0..self.first_args).collect(),
        )];
        for t in &self.then {
            v.push((&t.kernel, &t.global[..], t.local.as_deref(), t.args.clone()));
        }
        v
    }
}

fn sizes(s: &str) -> Result<Vec<usize>, String> {
    s.split([',', 'x'])
        .map(|n| n.parse().map_err(|_| format!("bad size `{s}`")))
        .collect()
}

fn parse_arg(tok: &str) -> Result<ArgSpec, String> {
    if let Some(rest) = tok.strip_prefix("pipe:") {
        let (bytes, n) = rest
            .trim_end_matches(']')
            .split_once('[')
            .ok_or(format!("bad pipe `{tok}`"))?;
        let bad = || format!("bad pipe `{tok}`");
        return Ok(ArgSpec::Pipe {
            packet: bytes.parse().map_err(|_| bad())?,
            count: n.parse().map_err(|_| bad())?,
        });
    }
    if let Some(rest) = tok.strip_prefix("sampler:") {
        let p: Vec<&str> = rest.split(':').collect();
        let [n, a, f] = p[..] else {
            return Err(format!("bad sampler `{tok}`"));
        };
        let addressing = match a {
            "none" => 0x1130,
            "edge" => 0x1131,
            "clamp" => 0x1132,
            "repeat" => 0x1133,
            "mirror" => 0x1134,
            _ => return Err(format!("bad addressing `{a}`")),
        };
        let filter = if f == "linear" {
            FILTER_LINEAR
        } else {
            FILTER_NEAREST
        };
        return Ok(ArgSpec::Sampler {
            normalized: n == "N",
            addressing,
            filter,
        });
    }
    if tok.starts_with("img") {
        let p: Vec<&str> = tok.split(':').collect();
        let [kind, mode, ch, dims] = p[..] else {
            return Err(format!("bad image `{tok}`"));
        };
        if !["ro", "wo", "rw"].contains(&mode) {
            return Err(format!("bad image access `{mode}` in `{tok}`"));
        }
        let rank: usize = kind[3..4]
            .parse()
            .map_err(|_| format!("bad image `{tok}`"))?;
        let mut d = sizes(dims)?;
        let array = if kind.ends_with('a') {
            Some(d.pop().ok_or(format!("bad image `{tok}`"))?)
        } else {
            None
        };
        let mut dims = [1usize; 3];
        dims[..d.len()].copy_from_slice(&d);
        return Ok(ArgSpec::Image {
            dims,
            rank,
            array,
            buffer: kind == "img1b",
            read: mode != "wo",
            write: mode != "ro",
            channel: ch.to_string(),
        });
    }
    if let Some((kind, rest)) = tok.split_once(':') {
        let (ty_n, range) = match rest.split_once('=') {
            Some((a, r)) => {
                let (lo, hi) = r.split_once("..").ok_or(format!("bad range `{r}`"))?;
                let lo = lo.parse().map_err(|_| format!("bad range `{r}`"))?;
                let hi = hi.parse().map_err(|_| format!("bad range `{r}`"))?;
                (a, Some((lo, hi)))
            }
            None => (rest, None),
        };
        let (ty, n) = ty_n
            .trim_end_matches(']')
            .split_once('[')
            .ok_or(format!("bad buffer `{tok}`"))?;
        let elem = Elem::parse(ty)?;
        let count: usize = n.parse().map_err(|_| format!("bad count in `{tok}`"))?;
        return Ok(match kind {
            "local" => ArgSpec::Local(count * elem.size()),
            "in" | "io" | "out" => ArgSpec::Buffer {
                elem,
                count,
                fill: kind != "out",
                compare: kind != "in",
                range,
            },
            _ => return Err(format!("bad argument kind `{kind}`")),
        });
    }
    // `TY=V[,V...]`: a scalar, or a vector of that element type passed by value.
    let (ty, vs) = tok.split_once('=').ok_or(format!("bad argument `{tok}`"))?;
    let elem = Elem::parse(ty)?;
    let mut bytes = Vec::new();
    for v in vs.split(',') {
        let bad = || format!("bad value `{v}` in `{tok}`");
        match elem {
            Elem::F32 => bytes.extend(v.parse::<f32>().map_err(|_| bad())?.to_le_bytes()),
            Elem::F64 => bytes.extend(v.parse::<f64>().map_err(|_| bad())?.to_le_bytes()),
            Elem::I(n, _) => {
                let x: i64 = v.parse().map_err(|_| bad())?;
                bytes.extend(&x.to_le_bytes()[..n as usize]);
            }
            Elem::F16 => {
                return Err("half values cannot be kernel arguments in OpenCL C 1.2".into())
            }
        }
    }
    Ok(ArgSpec::Scalar(bytes))
}

/// All `//@exec` lines of one kernel source, each with the `//@then` lines after it.
pub fn parse(source: &str) -> Result<Vec<ExecSpec>, String> {
    parse_tagged(source, "exec")
}

/// The tags of the lines that start a run (`//@then` lines continue the one before).
const RUN_TAGS: [&str; 3] = ["exec", "bench", "bench-cpu"];

/// All `//@TAG` lines of one kernel source (the benchmark's `//@bench`), each with the
/// `//@then` lines after it (up to the next line of another tag of `RUN_TAGS`).
pub fn parse_tagged(source: &str, tag: &str) -> Result<Vec<ExecSpec>, String> {
    let mut specs: Vec<ExecSpec> = Vec::new();
    let first = format!("//@{tag} ");
    // Whether a run line came yet, and whether the `//@then` lines here continue ours.
    let (mut started, mut ours) = (false, false);
    for line in source.lines() {
        let line = line.trim();
        if RUN_TAGS
            .iter()
            .any(|t| *t != tag && line.starts_with(&format!("//@{t} ")))
        {
            (started, ours) = (true, false);
            continue;
        }
        let (then, rest) = match (line.strip_prefix(&first), line.strip_prefix("//@then ")) {
            (Some(r), _) => {
                (started, ours) = (true, true);
                (false, r)
            }
            (_, Some(r)) if ours || !started => (true, r),
            _ => continue,
        };
        let mut toks = rest.split_whitespace();
        let kernel = toks.next().ok_or("missing kernel name")?.to_string();
        let (mut global, mut local, mut args, mut device_queue) = (vec![], None, vec![], false);
        for t in toks {
            if let Some(g) = t.strip_prefix("global=") {
                global = sizes(g)?;
            } else if let Some(l) = t.strip_prefix("local=") {
                local = Some(sizes(l)?);
            } else if t == "devqueue" {
                device_queue = true;
            } else if let Some(k) = t.strip_prefix("arg:") {
                args.push(Err(k.parse::<usize>().map_err(|_| format!("bad `{t}`"))?));
            } else {
                args.push(Ok(parse_arg(t)?));
            }
        }
        if global.is_empty() {
            return Err(format!("{kernel}: missing global="));
        }
        if !then {
            let args = args
                .into_iter()
                .map(|a| a.map_err(|_| format!("{kernel}: `arg:K` belongs on //@then lines")))
                .collect::<Result<Vec<_>, _>>()?;
            specs.push(ExecSpec {
                kernel,
                global,
                local,
                first_args: args.len(),
                args,
                then: vec![],
                device_queue,
            });
            continue;
        }
        let spec = specs.last_mut().ok_or(format!(
            "//@then {kernel} without an //@exec line before it"
        ))?;
        spec.device_queue |= device_queue;
        let mut indices = Vec::new();
        for a in args {
            match a {
                Ok(a) => {
                    spec.args.push(a);
                    indices.push(spec.args.len() - 1);
                }
                Err(k) if k < spec.args.len() => indices.push(k),
                Err(k) => return Err(format!("{kernel}: arg:{k} is not an argument made yet")),
            }
        }
        spec.then.push(Step {
            kernel,
            global,
            local,
            args: indices,
        });
    }
    Ok(specs)
}

fn fill(elem: Elem, count: usize, range: Option<(f64, f64)>, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(count * elem.size());
    for _ in 0..count {
        match elem {
            Elem::I(n, _) => {
                let v = match range {
                    Some((lo, hi)) => {
                        let span = (hi - lo) as u64 + 1;
                        (lo as i64 + (rng.next() % span) as i64) as u64
                    }
                    None => rng.next(),
                };
                out.extend_from_slice(&v.to_le_bytes()[..n as usize]);
            }
            Elem::F32 | Elem::F64 | Elem::F16 => {
                let (lo, hi) = range.unwrap_or((-16.0, 16.0));
                let v = lo + (hi - lo) * rng.unit();
                match elem {
                    Elem::F32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
                    Elem::F64 => out.extend_from_slice(&v.to_le_bytes()),
                    _ => out.extend_from_slice(&f32_to_f16(v as f32).to_le_bytes()),
                }
            }
        }
    }
    out
}

/// Round-toward-zero conversion, enough for making test inputs (normal range only).
fn f32_to_f16(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    if exp <= 0 {
        return sign;
    }
    if exp >= 31 {
        return sign | 0x7bff;
    }
    sign | ((exp as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

fn image_format(channel: &str) -> Result<(ImageFormat, usize), String> {
    const RGBA: u32 = 0x10B5;
    if channel == "depth" {
        let order = 0x10BD; // CL_DEPTH
        return Ok((
            ImageFormat {
                order,
                data_type: 0x10DE,
            },
            4,
        ));
    }
    let (data_type, bytes) = match channel {
        "f32" => (0x10DE, 16),
        "i32" => (0x10D9, 16),
        "u32" => (0x10DC, 16),
        "un8" => (0x10D2, 4),
        _ => return Err(format!("bad image channel type `{channel}`")),
    };
    Ok((
        ImageFormat {
            order: RGBA,
            data_type,
        },
        bytes,
    ))
}

/// The objects behind one run's arguments; compared outputs are read back by `outputs`.
pub struct Bound {
    pub args: Vec<Arg>,
    outputs: Vec<(usize, MemHandle, Option<[usize; 3]>, usize)>,
    mems: Vec<MemHandle>,
    samplers: Vec<MemHandle>,
}

/// The bytes one argument starts with, generated from the spec's seed: what every tier
/// (OpenCL, Vulkan) gives the kernel, so their outputs can be compared.
#[derive(Debug, Clone)]
pub enum ArgData {
    Buffer {
        bytes: Vec<u8>,
        compare: bool,
    },
    Local(usize),
    Scalar(Vec<u8>),
    Image {
        bytes: Vec<u8>,
        format: ImageFormat,
        ty: u32,
        dims: [usize; 3],
        array: Option<usize>,
        write: bool,
    },
    Sampler {
        normalized: bool,
        addressing: u32,
        filter: u32,
    },
    Pipe {
        packet: usize,
        count: usize,
    },
}

/// Every argument's initial bytes, in order, from `seed`.
pub fn arg_data(spec: &ExecSpec, seed: u64) -> Result<Vec<ArgData>, String> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    for a in &spec.args {
        out.push(match a {
            ArgSpec::Buffer {
                elem,
                count,
                fill: f,
                compare,
                range,
            } => ArgData::Buffer {
                bytes: if *f {
                    fill(*elem, *count, *range, &mut rng)
                } else {
                    vec![0u8; count * elem.size()]
                },
                compare: *compare,
            },
            ArgSpec::Local(n) => ArgData::Local(*n),
            ArgSpec::Scalar(v) => ArgData::Scalar(v.clone()),
            ArgSpec::Image {
                dims,
                rank,
                array,
                buffer,
                read,
                write,
                channel,
            } => {
                let (format, px) = image_format(channel)?;
                let len = dims.iter().product::<usize>() * array.unwrap_or(1) * px;
                let bytes = if !*read {
                    vec![0u8; len]
                } else {
                    match channel.as_str() {
                        "f32" | "depth" => fill(Elem::F32, len / 4, Some((0.0, 1.0)), &mut rng),
                        "un8" => fill(Elem::I(1, false), len, None, &mut rng),
                        _ => fill(Elem::I(4, true), len / 4, Some((-1000.0, 1000.0)), &mut rng),
                    }
                };
                let ty = match (rank, array) {
                    _ if *buffer => super::cl::MEM_OBJECT_IMAGE1D_BUFFER,
                    (1, None) => super::cl::MEM_OBJECT_IMAGE1D,
                    (1, Some(_)) => super::cl::MEM_OBJECT_IMAGE1D_ARRAY,
                    (3, _) => super::cl::MEM_OBJECT_IMAGE3D,
                    (_, None) => super::cl::MEM_OBJECT_IMAGE2D,
                    (_, Some(_)) => super::cl::MEM_OBJECT_IMAGE2D_ARRAY,
                };
                ArgData::Image {
                    bytes,
                    format,
                    ty,
                    dims: *dims,
                    array: *array,
                    write: *write,
                }
            }
            ArgSpec::Sampler {
                normalized,
                addressing,
                filter,
            } => ArgData::Sampler {
                normalized: *normalized,
                addressing: *addressing,
                filter: *filter,
            },
            ArgSpec::Pipe { packet, count } => ArgData::Pipe {
                packet: *packet,
                count: *count,
            },
        });
    }
    Ok(out)
}

pub fn bind(dev: &Device, spec: &ExecSpec, seed: u64) -> Result<Bound, String> {
    if spec.device_queue {
        dev.ensure_device_queue()?;
    }
    let mut b = Bound {
        args: vec![],
        outputs: vec![],
        mems: vec![],
        samplers: vec![],
    };
    for (i, a) in arg_data(spec, seed)?.into_iter().enumerate() {
        match a {
            ArgData::Buffer { bytes, compare } => {
                let m = dev.buffer(&bytes)?;
                b.mems.push(m);
                if compare {
                    b.outputs.push((i, m, None, bytes.len()));
                }
                b.args.push(Arg::Mem(m));
            }
            ArgData::Local(n) => b.args.push(Arg::Local(n)),
            ArgData::Scalar(v) => b.args.push(Arg::Bytes(v)),
            ArgData::Image {
                bytes,
                format,
                ty,
                dims,
                array,
                write,
            } => {
                let m = dev.image(format, ty, dims, array.unwrap_or(0), &bytes)?;
                b.mems.push(m);
                if write {
                    b.outputs.push((i, m, Some(dims), bytes.len()));
                }
                b.args.push(Arg::Mem(m));
            }
            ArgData::Sampler {
                normalized,
                addressing,
                filter,
            } => {
                let s = dev.sampler(normalized, addressing, filter)?;
                b.samplers.push(s);
                b.args.push(Arg::Sampler(s));
            }
            ArgData::Pipe { packet, count } => {
                let p = dev.pipe(packet, count)?;
                b.mems.push(p);
                b.args.push(Arg::Mem(p));
            }
        }
    }
    Ok(b)
}

impl Bound {
    /// (argument index, bytes) of every compared argument; releases the objects.
    pub fn outputs(self, dev: &Device) -> Result<Vec<(usize, Vec<u8>)>, String> {
        let mut out = Vec::new();
        for (i, m, dims, len) in &self.outputs {
            let bytes = match dims {
                Some(d) => dev.read_image(*m, *d, *len)?,
                None => dev.read_buffer(*m, *len)?,
            };
            out.push((*i, bytes));
        }
        for m in self.mems {
            dev.release_mem(m);
        }
        for s in self.samplers {
            dev.release_sampler(s);
        }
        Ok(out)
    }
}
