//! Minimal OpenCL host bindings for the execution tier: just what the tests need to build a
//! program from source or from SPIR bitcode, bind buffers, images and samplers, run one kernel
//! and read results back. Every call is checked; an error names the call and the CL status.
#![allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

type cl_int = i32;
type cl_uint = u32;
type cl_ulong = u64;
type Handle = *mut c_void;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ImageFormat {
    pub order: cl_uint,
    pub data_type: cl_uint,
}

#[repr(C)]
pub struct ImageDesc {
    pub image_type: cl_uint,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    pub row_pitch: usize,
    pub slice_pitch: usize,
    pub num_mip_levels: cl_uint,
    pub num_samples: cl_uint,
    pub buffer: Handle,
}

#[link(name = "OpenCL")]
extern "C" {
    fn clGetPlatformIDs(n: cl_uint, p: *mut Handle, num: *mut cl_uint) -> cl_int;
    fn clGetDeviceIDs(
        p: Handle,
        ty: cl_ulong,
        n: cl_uint,
        d: *mut Handle,
        num: *mut cl_uint,
    ) -> cl_int;
    fn clCreateContext(
        props: *const isize,
        n: cl_uint,
        d: *const Handle,
        cb: *const c_void,
        ud: *mut c_void,
        err: *mut cl_int,
    ) -> Handle;
    fn clCreateCommandQueueWithProperties(
        c: Handle,
        d: Handle,
        props: *const cl_ulong,
        err: *mut cl_int,
    ) -> Handle;
    fn clCreateProgramWithSource(
        c: Handle,
        n: cl_uint,
        s: *const *const i8,
        len: *const usize,
        err: *mut cl_int,
    ) -> Handle;
    fn clCreateProgramWithIL(c: Handle, il: *const c_void, len: usize, err: *mut cl_int) -> Handle;
    fn clGetPlatformInfo(
        p: Handle,
        name: cl_uint,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> cl_int;
    fn clCreateProgramWithBinary(
        c: Handle,
        n: cl_uint,
        d: *const Handle,
        len: *const usize,
        bin: *const *const u8,
        status: *mut cl_int,
        err: *mut cl_int,
    ) -> Handle;
    fn clBuildProgram(
        p: Handle,
        n: cl_uint,
        d: *const Handle,
        opts: *const i8,
        cb: *const c_void,
        ud: *mut c_void,
    ) -> cl_int;
    fn clGetProgramBuildInfo(
        p: Handle,
        d: Handle,
        what: cl_uint,
        size: usize,
        val: *mut c_void,
        ret: *mut usize,
    ) -> cl_int;
    fn clGetProgramInfo(
        p: Handle,
        what: cl_uint,
        size: usize,
        val: *mut c_void,
        ret: *mut usize,
    ) -> cl_int;
    fn clCreateKernel(p: Handle, name: *const i8, err: *mut cl_int) -> Handle;
    fn clSetKernelArg(k: Handle, i: cl_uint, size: usize, val: *const c_void) -> cl_int;
    fn clCreateBuffer(
        c: Handle,
        flags: cl_ulong,
        size: usize,
        host: *mut c_void,
        err: *mut cl_int,
    ) -> Handle;
    fn clCreateImage(
        c: Handle,
        flags: cl_ulong,
        fmt: *const ImageFormat,
        desc: *const ImageDesc,
        host: *mut c_void,
        err: *mut cl_int,
    ) -> Handle;
    fn clCreateSamplerWithProperties(c: Handle, props: *const cl_ulong, err: *mut cl_int)
        -> Handle;
    fn clEnqueueNDRangeKernel(
        q: Handle,
        k: Handle,
        dims: cl_uint,
        off: *const usize,
        global: *const usize,
        local: *const usize,
        nw: cl_uint,
        wl: *const c_void,
        ev: *mut Handle,
    ) -> cl_int;
    fn clEnqueueReadBuffer(
        q: Handle,
        b: Handle,
        block: cl_uint,
        off: usize,
        size: usize,
        dst: *mut c_void,
        nw: cl_uint,
        wl: *const c_void,
        ev: *mut c_void,
    ) -> cl_int;
    fn clEnqueueReadImage(
        q: Handle,
        img: Handle,
        block: cl_uint,
        origin: *const usize,
        region: *const usize,
        row: usize,
        slice: usize,
        dst: *mut c_void,
        nw: cl_uint,
        wl: *const c_void,
        ev: *mut c_void,
    ) -> cl_int;
    fn clFinish(q: Handle) -> cl_int;
    fn clWaitForEvents(n: cl_uint, events: *const Handle) -> cl_int;
    fn clGetEventProfilingInfo(
        e: Handle,
        param: cl_uint,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> cl_int;
    fn clReleaseEvent(e: Handle) -> cl_int;
    fn clGetKernelSubGroupInfo(
        k: Handle,
        d: Handle,
        param: cl_uint,
        in_size: usize,
        input: *const c_void,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> cl_int;
    fn clCreatePipe(
        c: Handle,
        flags: cl_ulong,
        packet_size: cl_uint,
        max_packets: cl_uint,
        props: *const isize,
        err: *mut cl_int,
    ) -> Handle;
    fn clReleaseCommandQueue(q: Handle) -> cl_int;
    fn clReleaseMemObject(m: Handle) -> cl_int;
    fn clReleaseKernel(k: Handle) -> cl_int;
    fn clReleaseProgram(p: Handle) -> cl_int;
    fn clReleaseSampler(s: Handle) -> cl_int;
}

pub const MEM_READ_WRITE: cl_ulong = 1;
const KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE: cl_uint = 0x2033;
pub const MEM_COPY_HOST_PTR: cl_ulong = 1 << 5;
pub const MEM_OBJECT_IMAGE2D: cl_uint = 0x10F1;
pub const MEM_OBJECT_IMAGE3D: cl_uint = 0x10F2;
pub const MEM_OBJECT_IMAGE1D: cl_uint = 0x10F4;
pub const MEM_OBJECT_IMAGE2D_ARRAY: cl_uint = 0x10F3;
pub const MEM_OBJECT_IMAGE1D_ARRAY: cl_uint = 0x10F5;
pub const MEM_OBJECT_IMAGE1D_BUFFER: cl_uint = 0x10F6;

fn check(what: &str, status: cl_int) -> Result<(), String> {
    if status == 0 {
        Ok(())
    } else {
        Err(format!("{what} failed with CL status {status}"))
    }
}

/// One device (the first of the first platform: PoCL on CI) with its context and queue.
pub struct Device {
    device: Handle,
    context: Handle,
    queue: Handle,
    /// The default on-device queue (`get_default_queue()`), made on first use.
    device_queue: std::cell::Cell<Handle>,
}

/// A memory object, a sampler, or a plain value to bind as one kernel argument.
pub enum Arg {
    Mem(Handle),
    Sampler(Handle),
    Local(usize),
    Bytes(Vec<u8>),
}

impl Device {
    pub fn first() -> Result<Device, String> {
        Self::of_platform("")
    }

    /// The first device of the first platform whose name contains `name` (any, for "").
    pub fn of_platform(name: &str) -> Result<Device, String> {
        Self::open(name, false)
    }

    /// As `of_platform`, with a queue that times each kernel (`run_timed`).
    pub fn profiling(name: &str) -> Result<Device, String> {
        Self::open(name, true)
    }

    fn open(name: &str, profiling: bool) -> Result<Device, String> {
        unsafe {
            let mut platforms = [null_mut(); 16];
            let mut n = 0;
            check(
                "clGetPlatformIDs",
                clGetPlatformIDs(16, platforms.as_mut_ptr(), &mut n),
            )?;
            let mut names = Vec::new();
            let mut chosen = None;
            for &p in &platforms[..(n as usize).min(16)] {
                let mut buf = vec![0u8; 256];
                let mut len = 0;
                clGetPlatformInfo(p, 0x0902, buf.len(), buf.as_mut_ptr().cast(), &mut len);
                buf.truncate(len.saturating_sub(1));
                let pname = String::from_utf8_lossy(&buf).into_owned();
                if chosen.is_none() && pname.contains(name) {
                    chosen = Some(p);
                }
                names.push(pname);
            }
            let Some(platform) = chosen else {
                return Err(format!(
                    "no OpenCL platform named '{name}' (found: {names:?}; see .ci/run)"
                ));
            };
            let mut device = null_mut();
            check(
                "clGetDeviceIDs",
                clGetDeviceIDs(platform, 0xFFFF_FFFF, 1, &mut device, &mut n),
            )?;
            let mut err = 0;
            let context = clCreateContext(null(), 1, &device, null(), null_mut(), &mut err);
            check("clCreateContext", err)?;
            // CL_QUEUE_PROPERTIES: CL_QUEUE_PROFILING_ENABLE.
            let props = [0x1093u64, 2, 0];
            let props = if profiling { props.as_ptr() } else { null() };
            let queue = clCreateCommandQueueWithProperties(context, device, props, &mut err);
            check("clCreateCommandQueueWithProperties", err)?;
            Ok(Device {
                device,
                context,
                queue,
                device_queue: std::cell::Cell::new(null_mut()),
            })
        }
    }

    fn build(&self, program: Handle, options: &str) -> Result<Handle, String> {
        let opts = CString::new(options).unwrap();
        let status =
            unsafe { clBuildProgram(program, 1, &self.device, opts.as_ptr(), null(), null_mut()) };
        if status != 0 {
            let mut log = vec![0u8; 1 << 16];
            let mut len = 0;
            unsafe {
                clGetProgramBuildInfo(
                    program,
                    self.device,
                    0x1183, // CL_PROGRAM_BUILD_LOG
                    log.len(),
                    log.as_mut_ptr().cast(),
                    &mut len,
                );
                clReleaseProgram(program);
            }
            log.truncate(len.saturating_sub(1));
            // PoCL's log is mostly optimizer remarks ("<unknown>:0:0: ..."); keep the rest.
            let text = String::from_utf8_lossy(&log).replace("<unknown>:0:0: ", "\n");
            let errors: Vec<&str> = text
                .lines()
                .filter(|l| {
                    !(l.contains("instructions in function")
                        || l.contains("vectorized")
                        || l.starts_with("ignoring debug info")
                        || l.trim().is_empty())
                })
                .collect();
            return Err(format!(
                "clBuildProgram failed with CL status {status}:\n{}",
                errors.join("\n")
            ));
        }
        Ok(program)
    }

    /// A built program's build log (`CL_PROGRAM_BUILD_LOG`).
    pub fn build_log(&self, p: &Program) -> String {
        let mut log = vec![0u8; 1 << 16];
        let mut len = 0;
        unsafe {
            clGetProgramBuildInfo(
                p.0,
                self.device,
                0x1183, // CL_PROGRAM_BUILD_LOG
                log.len(),
                log.as_mut_ptr().cast(),
                &mut len,
            );
        }
        log.truncate(len.saturating_sub(1));
        String::from_utf8_lossy(&log).into_owned()
    }

    /// OpenCL C source, built as the OpenCL C version its `//@std` line names (CL1.2 when it
    /// has none), with the options its `//@options` line names.
    pub fn program_from_source(&self, src: &str) -> Result<Program, String> {
        let s = CString::new(src).unwrap();
        let mut err = 0;
        let p =
            unsafe { clCreateProgramWithSource(self.context, 1, &s.as_ptr(), null(), &mut err) };
        check("clCreateProgramWithSource", err)?;
        let options = format!("-cl-std={} {}", cl_std(src), build_options(src));
        Ok(Program(self.build(p, options.trim_end())?))
    }

    /// OpenCL C source built with `options` (`-cl-std=CL2.0`).
    pub fn program_from_source_with(&self, src: &str, options: &str) -> Result<Program, String> {
        let s = CString::new(src).unwrap();
        let mut err = 0;
        let p =
            unsafe { clCreateProgramWithSource(self.context, 1, &s.as_ptr(), null(), &mut err) };
        check("clCreateProgramWithSource", err)?;
        Ok(Program(self.build(p, options)?))
    }

    /// A SPIR-V module (clCreateProgramWithIL), built with no options.
    pub fn program_from_il(&self, spirv: &[u8]) -> Result<Program, String> {
        let mut err = 0;
        let p = unsafe {
            clCreateProgramWithIL(self.context, spirv.as_ptr().cast(), spirv.len(), &mut err)
        };
        check("clCreateProgramWithIL", err)?;
        Ok(Program(self.build(p, "")?))
    }

    /// SPIR bitcode, built with the `-x spir` option cl_khr_spir asks for.
    pub fn program_from_spir(&self, bitcode: &[u8]) -> Result<Program, String> {
        let (mut err, mut status) = (0, 0);
        let p = unsafe {
            clCreateProgramWithBinary(
                self.context,
                1,
                &self.device,
                &bitcode.len(),
                &bitcode.as_ptr(),
                &mut status,
                &mut err,
            )
        };
        check("clCreateProgramWithBinary", err)?;
        check("clCreateProgramWithBinary (binary status)", status)?;
        Ok(Program(self.build(p, "-x spir -spir-std=1.2")?))
    }

    pub fn buffer(&self, data: &[u8]) -> Result<Handle, String> {
        let mut err = 0;
        let mut copy = data.to_vec();
        let m = unsafe {
            clCreateBuffer(
                self.context,
                MEM_READ_WRITE | MEM_COPY_HOST_PTR,
                copy.len().max(1),
                copy.as_mut_ptr().cast(),
                &mut err,
            )
        };
        check("clCreateBuffer", err)?;
        Ok(m)
    }

    /// An image of `image_type` holding `data`; a 1D buffer image is made from a buffer
    /// holding it (OpenCL copies no host data into those), which the image keeps alive.
    pub fn image(
        &self,
        format: ImageFormat,
        image_type: cl_uint,
        dims: [usize; 3],
        array_size: usize,
        data: &[u8],
    ) -> Result<Handle, String> {
        let from_buffer = image_type == MEM_OBJECT_IMAGE1D_BUFFER;
        let buffer = if from_buffer {
            self.buffer(data)?
        } else {
            null_mut()
        };
        let desc = ImageDesc {
            image_type,
            width: dims[0],
            height: dims[1],
            depth: dims[2],
            array_size,
            row_pitch: 0,
            slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer,
        };
        let mut err = 0;
        let mut copy = data.to_vec();
        let (flags, host) = if from_buffer {
            (MEM_READ_WRITE, null_mut())
        } else {
            (MEM_READ_WRITE | MEM_COPY_HOST_PTR, copy.as_mut_ptr().cast())
        };
        let m = unsafe { clCreateImage(self.context, flags, &format, &desc, host, &mut err) };
        if from_buffer {
            // The image holds its own reference to the buffer.
            unsafe { clReleaseMemObject(buffer) };
        }
        check("clCreateImage", err)?;
        Ok(m)
    }

    /// A pipe of `max_packets` packets of `packet_size` bytes.
    pub fn pipe(&self, packet_size: usize, max_packets: usize) -> Result<Handle, String> {
        let mut err = 0;
        let p = unsafe {
            clCreatePipe(
                self.context,
                0,
                packet_size as cl_uint,
                max_packets as cl_uint,
                null(),
                &mut err,
            )
        };
        check("clCreatePipe", err)?;
        Ok(p)
    }

    /// Makes sure the context has a default on-device queue, which kernels that enqueue
    /// kernels (`get_default_queue()`) use. It lives as long as the device.
    pub fn ensure_device_queue(&self) -> Result<(), String> {
        if !self.device_queue.get().is_null() {
            return Ok(());
        }
        const QUEUE_PROPERTIES: cl_ulong = 0x1093;
        // CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT
        let props: [cl_ulong; 3] = [QUEUE_PROPERTIES, 1 | 4 | 8, 0];
        let mut err = 0;
        let q = unsafe {
            clCreateCommandQueueWithProperties(self.context, self.device, props.as_ptr(), &mut err)
        };
        check(
            "clCreateCommandQueueWithProperties (on-device default queue)",
            err,
        )?;
        self.device_queue.set(q);
        Ok(())
    }

    pub fn sampler(
        &self,
        normalized: bool,
        addressing: u32,
        filter: u32,
    ) -> Result<Handle, String> {
        let props: [cl_ulong; 7] = [
            0x1152, // CL_SAMPLER_NORMALIZED_COORDS
            normalized as cl_ulong,
            0x1153, // CL_SAMPLER_ADDRESSING_MODE
            addressing as cl_ulong,
            0x1154, // CL_SAMPLER_FILTER_MODE
            filter as cl_ulong,
            0,
        ];
        let mut err = 0;
        let s = unsafe { clCreateSamplerWithProperties(self.context, props.as_ptr(), &mut err) };
        check("clCreateSamplerWithProperties", err)?;
        Ok(s)
    }

    /// Runs `kernel` over `global` (and `local`, if given) and waits for it.
    pub fn run(
        &self,
        program: &Program,
        kernel: &str,
        args: &[&Arg],
        global: &[usize],
        local: Option<&[usize]>,
    ) -> Result<(), String> {
        self.run_timed(program, kernel, args, global, local, 0)
            .map(|_| ())
    }

    /// Runs `kernel` once, or `repeat` times one after the other with the time each took
    /// (its event's start to end, in milliseconds: a `profiling` device's), and waits.
    pub fn run_timed(
        &self,
        program: &Program,
        kernel: &str,
        args: &[&Arg],
        global: &[usize],
        local: Option<&[usize]>,
        repeat: usize,
    ) -> Result<Vec<f64>, String> {
        let launch = Launch {
            kernel,
            args: args.to_vec(),
            global,
            local,
        };
        self.run_steps_timed(program, &[launch], repeat)
    }

    /// Runs the kernels of `steps` in order (a program's kernels run one after another on
    /// the same objects) once, or `repeat` times with the time each round took: the start
    /// of its first kernel to the end of its last, gaps between them included, as a GPU's
    /// timestamps around a batch of dispatches measure it (a `profiling` device's).
    pub fn run_steps_timed(
        &self,
        program: &Program,
        steps: &[Launch],
        repeat: usize,
    ) -> Result<Vec<f64>, String> {
        let mut kernels = Vec::new();
        let made = steps.iter().try_for_each(|s| {
            kernels.push(self.kernel_with_args(program, s.kernel, &s.args)?);
            Ok::<(), String>(())
        });
        let result = made.and_then(|()| {
            // Per round, the first kernel's event and the last's.
            let mut events = vec![(null_mut(), null_mut()); repeat];
            let last = steps.len().saturating_sub(1);
            for i in 0..repeat.max(1) {
                for (j, (s, &k)) in steps.iter().zip(&kernels).enumerate() {
                    let event = match events.get_mut(i) {
                        Some((first, _)) if j == 0 => first as *mut Handle,
                        Some((_, end)) if j == last => end as *mut Handle,
                        _ => null_mut(),
                    };
                    let status = unsafe {
                        clEnqueueNDRangeKernel(
                            self.queue,
                            k,
                            s.global.len() as cl_uint,
                            null(),
                            s.global.as_ptr(),
                            s.local.map_or(null(), |l| l.as_ptr()),
                            0,
                            null(),
                            event,
                        )
                    };
                    check(&format!("clEnqueueNDRangeKernel({})", s.kernel), status)?;
                }
            }
            check("clFinish", unsafe { clFinish(self.queue) })?;
            let times = events
                .iter()
                .map(|&(first, end)| {
                    let end = if last == 0 { first } else { end };
                    Ok(
                        (event_at(end, 0x1283)?.saturating_sub(event_at(first, 0x1282)?)) as f64
                            * 1e-6,
                    )
                })
                .collect();
            for (first, end) in events {
                unsafe { clReleaseEvent(first) };
                if last > 0 {
                    unsafe { clReleaseEvent(end) };
                }
            }
            times
        });
        for k in kernels {
            unsafe { clReleaseKernel(k) };
        }
        result
    }

    /// `kernel` of `program` with `args` set.
    fn kernel_with_args(
        &self,
        program: &Program,
        kernel: &str,
        args: &[&Arg],
    ) -> Result<Handle, String> {
        let name = CString::new(kernel).unwrap();
        let mut err = 0;
        let k = unsafe { clCreateKernel(program.0, name.as_ptr(), &mut err) };
        check(&format!("clCreateKernel({kernel})"), err)?;
        for (i, a) in args.iter().enumerate() {
            let status = unsafe {
                match a {
                    Arg::Mem(h) | Arg::Sampler(h) => clSetKernelArg(
                        k,
                        i as cl_uint,
                        std::mem::size_of::<Handle>(),
                        (h as *const Handle).cast(),
                    ),
                    Arg::Local(n) => clSetKernelArg(k, i as cl_uint, *n, null()),
                    Arg::Bytes(b) => clSetKernelArg(k, i as cl_uint, b.len(), b.as_ptr().cast()),
                }
            };
            if let Err(e) = check(&format!("clSetKernelArg({kernel}, {i})"), status) {
                unsafe { clReleaseKernel(k) };
                return Err(e);
            }
        }
        Ok(k)
    }

    /// The size of the sub-groups the driver splits a work-group of `local` into for
    /// `kernel` (OpenCL 2.1's `clGetKernelSubGroupInfo`).
    pub fn sub_group_size(
        &self,
        program: &Program,
        kernel: &str,
        local: &[usize],
    ) -> Result<usize, String> {
        let name = CString::new(kernel).unwrap();
        let mut err = 0;
        let k = unsafe { clCreateKernel(program.0, name.as_ptr(), &mut err) };
        check(&format!("clCreateKernel({kernel})"), err)?;
        let mut size = 0usize;
        let status = unsafe {
            clGetKernelSubGroupInfo(
                k,
                self.device,
                KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                std::mem::size_of_val(local),
                local.as_ptr().cast(),
                std::mem::size_of::<usize>(),
                (&mut size as *mut usize).cast(),
                null_mut(),
            )
        };
        unsafe { clReleaseKernel(k) };
        check(&format!("clGetKernelSubGroupInfo({kernel})"), status)?;
        Ok(size)
    }

    pub fn read_buffer(&self, m: Handle, len: usize) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; len];
        let status = unsafe {
            clEnqueueReadBuffer(
                self.queue,
                m,
                1,
                0,
                len,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut(),
            )
        };
        check("clEnqueueReadBuffer", status)?;
        Ok(out)
    }

    pub fn read_image(&self, m: Handle, dims: [usize; 3], len: usize) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; len];
        let origin = [0usize; 3];
        let status = unsafe {
            clEnqueueReadImage(
                self.queue,
                m,
                1,
                origin.as_ptr(),
                dims.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut(),
            )
        };
        check("clEnqueueReadImage", status)?;
        Ok(out)
    }

    pub fn release_mem(&self, m: Handle) {
        unsafe { clReleaseMemObject(m) };
    }

    pub fn release_sampler(&self, s: Handle) {
        unsafe { clReleaseSampler(s) };
    }
}

/// A finished command's profiling time `param` (CL_PROFILING_COMMAND_START 0x1282,
/// CL_PROFILING_COMMAND_END 0x1283), in nanoseconds.
fn event_at(e: Handle, param: cl_uint) -> Result<u64, String> {
    let mut at = 0u64;
    let status = unsafe {
        clWaitForEvents(1, &e);
        clGetEventProfilingInfo(e, param, 8, (&mut at as *mut u64).cast(), null_mut())
    };
    check("clGetEventProfilingInfo", status)?;
    Ok(at)
}

/// One kernel run of a program: its name, arguments and sizes.
pub struct Launch<'a> {
    pub kernel: &'a str,
    pub args: Vec<&'a Arg>,
    pub global: &'a [usize],
    pub local: Option<&'a [usize]>,
}

/// A built program; released on drop.
pub struct Program(Handle);

impl Program {
    /// The `cl_program`, for calls this file does not wrap (it stays owned here).
    #[allow(dead_code)]
    pub fn handle(&self) -> Handle {
        self.0
    }

    /// What the driver made of the program for its one device (`CL_PROGRAM_BINARIES`):
    /// PTX text on NVIDIA's OpenCL, which shows the code its compiler chose.
    #[allow(dead_code)]
    pub fn binary(&self) -> Result<Vec<u8>, String> {
        let mut size = 0usize;
        let status = unsafe {
            clGetProgramInfo(
                self.0,
                0x1165, // CL_PROGRAM_BINARY_SIZES
                std::mem::size_of::<usize>(),
                (&mut size as *mut usize).cast(),
                null_mut(),
            )
        };
        check("clGetProgramInfo (binary sizes)", status)?;
        let mut bytes = vec![0u8; size];
        let mut at = bytes.as_mut_ptr();
        let status = unsafe {
            clGetProgramInfo(
                self.0,
                0x1166, // CL_PROGRAM_BINARIES
                std::mem::size_of::<*mut u8>(),
                (&mut at as *mut *mut u8).cast(),
                null_mut(),
            )
        };
        check("clGetProgramInfo (binaries)", status)?;
        Ok(bytes)
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        unsafe { clReleaseProgram(self.0) };
    }
}

pub type MemHandle = Handle;

/// The OpenCL C version a kernel source is written in: its `//@std CLx.y` line (the fixture
/// script compiles it so too), CL1.2 without one.
pub fn cl_std(src: &str) -> &str {
    src.lines()
        .find_map(|l| l.strip_prefix("//@std "))
        .map_or("CL1.2", str::trim)
}

/// The build options a kernel source's `//@options` line names (`-cl-fast-relaxed-math`;
/// the fixture script compiles it so too), none without one.
pub fn build_options(src: &str) -> &str {
    src.lines()
        .find_map(|l| l.strip_prefix("//@options "))
        .map_or("", str::trim)
}
