//! A kernel's arguments as clspv lays them out: storage buffers or device addresses in the
//! push constants, values (in an argument buffer past the push constants' 128 bytes, with
//! the addresses too where those alone pass it),
//! `__local` arrays sized by specialization constants, image and sampler descriptors.

use crate::diag::{Error, Result};
use crate::ir::interface::{ArgKind, Binding, ImageArg, PushConstantRange};
use crate::ir::{self, AddressSpace, Constant, ConstantKind, Handle, Type};
use crate::options::VulkanPointers;

use super::super::types::Lowerer;
use super::{Block, Source};

/// What the lowering of the arguments builds up, argument by argument.
pub(super) struct ArgState {
    /// The push-constant block.
    pub(super) push: Block,
    /// The argument buffer, where values go when the push constants cannot hold them.
    pub(super) pods: Block,
    pub(super) pods_in_buffer: bool,
    /// The device addresses go to the argument buffer too (then a uniform buffer).
    pub(super) pointers_in_buffer: bool,
    /// Descriptor bindings taken so far.
    pub(super) bindings: u32,
    /// `__local` arguments in the kernel's addressed local memory (`local_region`).
    pub(super) local_args: Vec<crate::vulkan::addressed::local_region::LocalArg>,
}

/// Argument `i` of kernel `k`: its interface and how the entry block makes its value.
pub(super) fn argument(
    l: &mut Lowerer,
    k: &ir::Kernel,
    i: usize,
    st: &mut ArgState,
) -> Result<(ArgKind, Source)> {
    let src = l.src;
    let f = &src.functions[k.function];
    let p = &f.params[i];
    let u64t = l.out.int_type(64);
    let what = || {
        format!(
            "argument {i} (`{}`)",
            p.name.as_deref().unwrap_or("unnamed")
        )
    };
    Ok(match &src.types[p.ty] {
        Type::Pointer {
            space: AddressSpace::Global | AddressSpace::Constant,
            pointee,
        } if l.pointers == VulkanPointers::Descriptors => {
            let elem = match src.types[*pointee] {
                Type::Void => l.out.int_type(8),
                _ => l.ty(*pointee).map_err(|e| e.at_value(what()))?,
            };
            let g = storage_buffer(l, &f.name, p.name.as_deref(), i, elem);
            let binding = st.bindings;
            st.bindings += 1;
            (
                ArgKind::StorageBuffer {
                    descriptor_set: 0,
                    binding,
                    global: g,
                    access: ir::interface::BufferAccess {
                        non_writable: p.attrs.readonly || p.attrs.readnone,
                        non_readable: p.attrs.writeonly || p.attrs.readnone,
                        restrict: p.attrs.noalias,
                    },
                },
                Source::Buffer(g),
            )
        }
        Type::Pointer {
            space: AddressSpace::Global | AddressSpace::Constant,
            ..
        } => {
            // Its kind becomes PointerUniform once the buffer exists.
            let block = match st.pointers_in_buffer {
                true => &mut st.pods,
                false => &mut st.push,
            };
            let (n, at, size) = block.add(l, u64t);
            let kind = ArgKind::PointerPushConstant {
                offset: at,
                size,
                restrict_holder: None,
            };
            match st.pointers_in_buffer {
                true => (kind, Source::PointerBuffer(n)),
                false => (kind, Source::Pointer(n)),
            }
        }
        Type::Pointer {
            space: AddressSpace::Local,
            pointee,
        } => local_argument(l, f, i, *pointee, st).map_err(|e| e.at_value(what()))?,
        Type::Pointer {
            space: AddressSpace::Private,
            pointee,
        } if p.attrs.byval => {
            let t = l.ty(*pointee).map_err(|e| e.at_value(what()))?;
            value_arg(l, t, true, st.pods_in_buffer, &mut st.push, &mut st.pods)
        }
        Type::Pointer { space, .. } => {
            return Err(Error::unsupported(format!(
                "{}: a kernel argument pointing to {space:?} memory has no Vulkan form",
                what()
            )))
        }
        Type::Image(img) => image_argument(l, k, i, *img, st).map_err(|e| e.at_value(what()))?,
        Type::Sampler => {
            let sampler = l.out.ty(Type::Sampler);
            let binding = descriptor(l, &f.name, p.name.as_deref(), i, sampler, &mut st.bindings);
            let g = binding.global;
            // The host's word saying whether OpenCL's sampler is normalized.
            let u32t = l.out.int_type(32);
            let (n, at, size) = st.push.add(l, u32t);
            l.samplers
                .insert(g, super::super::state::SamplerSource::Argument { mask: n });
            (
                ArgKind::Sampler {
                    binding,
                    normalized_mask: PushConstantRange { offset: at, size },
                },
                Source::Handle(g),
            )
        }
        _ => {
            let t = l.ty(p.ty).map_err(|e| e.at_value(what()))?;
            value_arg(l, t, false, st.pods_in_buffer, &mut st.push, &mut st.pods)
        }
    })
}

/// A `__local` pointer argument: a specialization constant for its length, and its
/// Workgroup array (or its place in the kernel's addressed local memory).
fn local_argument(
    l: &mut Lowerer,
    f: &ir::Function,
    i: usize,
    pointee: Handle<Type>,
    st: &mut ArgState,
) -> Result<(ArgKind, Source)> {
    let src = l.src;
    let p = &f.params[i];
    let elem = match src.types[pointee] {
        Type::Void => l.out.int_type(8),
        _ => l.ty(pointee)?,
    };
    let spec_id = l.next_spec_id;
    l.next_spec_id += 1;
    let u32t = l.out.int_type(32);
    let default = l.out.int_const(u32t, 1);
    let len = l.out.constant(Constant {
        ty: u32t,
        kind: ConstantKind::Spec { spec_id, default },
    });
    let name = format!(
        "{}.{}",
        f.name,
        p.name.clone().unwrap_or_else(|| format!("arg{i}"))
    );
    let elem_size = l.out.size_of(elem).max(1) as u32;
    let kind = ArgKind::Workgroup { spec_id, elem_size };
    if l.local_addressed {
        // Addressed local memory is an array of words made with the kernel's
        // other local objects (`local_region`).
        st.local_args
            .push(crate::vulkan::addressed::local_region::LocalArg {
                name,
                count: len,
                elem_size: u64::from(elem_size),
            });
        Ok((kind, Source::LocalRegion(st.local_args.len() - 1)))
    } else {
        let array = l.out.ty(Type::SpecArray {
            elem,
            len,
            default_len: 1,
        });
        let g = l.out.globals.append(ir::Global {
            name,
            ty: array,
            space: AddressSpace::Local,
            init: None,
            is_constant: false,
            align: None,
            linkage: ir::Linkage::Internal,
        });
        Ok((kind, Source::Workgroup(g)))
    }
}

/// An image argument: its descriptor, and the push-constant words for the channel order
/// and data type where the kernel queries them.
fn image_argument(
    l: &mut Lowerer,
    k: &ir::Kernel,
    i: usize,
    img: ir::ImageType,
    st: &mut ArgState,
) -> Result<(ArgKind, Source)> {
    let src = l.src;
    let f = &src.functions[k.function];
    let p = &f.params[i];
    let used = super::super::images::image_use(src, k.function, i as u32)?;
    // An image typed read-only that the kernel writes (llvm-spirv types a legacy SPIR image
    // read-only whatever the kernel does with it) is a storage image, unless it is sampled
    // too, which no Vulkan image can be both.
    let img = match (img.access.unwrap_or(ir::Access::ReadOnly), used.written) {
        (ir::Access::ReadOnly, true) if used.sampled => {
            return Err(Error::malformed(format!(
                "image argument {} is read_only, sampled and written",
                p.name.as_deref().unwrap_or("(unnamed)")
            )))
        }
        (ir::Access::ReadOnly, true) => ir::ImageType {
            access: Some(ir::Access::ReadWrite),
            ..img
        },
        _ => img,
    };
    let texel = super::super::images::image_type(&mut l.out, img, used.texel)?;
    let binding = descriptor(l, &f.name, p.name.as_deref(), i, texel, &mut st.bindings);
    let g = binding.global;
    // The host's words for the channel order and data type the kernel asks.
    let u32t = l.out.int_type(32);
    let mut word = |l: &mut Lowerer, asked: bool| {
        asked.then(|| {
            let (n, at, size) = st.push.add(l, u32t);
            (n, PushConstantRange { offset: at, size })
        })
    };
    let order = word(l, used.queries_order);
    let data_type = word(l, used.queries_data_type);
    if order.is_some() || data_type.is_some() {
        l.image_words
            .insert(g, (order.map(|w| w.0), data_type.map(|w| w.0)));
    }
    let arg = ImageArg {
        binding,
        channel_order: order.map(|w| w.1),
        channel_data_type: data_type.map(|w| w.1),
        texel_buffer: img.dim == ir::ImageDim::Buffer,
    };
    let storage = matches!(l.out.types[texel], Type::ShaderImage { storage: true, .. });
    let kind = if storage {
        ArgKind::StorageImage(arg)
    } else {
        ArgKind::SampledImage(arg)
    };
    Ok((kind, Source::Handle(g)))
}

/// A value argument of type `t` (`byval`: the kernel takes a pointer to a private copy): in
/// the push constants, or in the argument buffer where the values do not fit there (its
/// kind becomes PodStorageBuffer once the buffer exists).
fn value_arg(
    l: &Lowerer,
    t: Handle<Type>,
    byval: bool,
    in_buffer: bool,
    push: &mut Block,
    pods: &mut Block,
) -> (ArgKind, Source) {
    if in_buffer {
        let (member, offset, size) = pods.add(l, t);
        (
            ArgKind::PodPushConstant { offset, size },
            Source::PodBuffer { member, byval },
        )
    } else {
        let (member, offset, size) = push.add(l, t);
        (
            ArgKind::PodPushConstant { offset, size },
            Source::Pod { member, byval },
        )
    }
}

/// The descriptor of image or sampler argument `i` (`name`) of kernel `kernel`, of type
/// `t`: a `UniformConstant` global (OpenCL's Constant space) at the next binding of set 0.
fn descriptor(
    l: &mut Lowerer,
    kernel: &str,
    name: Option<&str>,
    i: usize,
    t: Handle<Type>,
    bindings: &mut u32,
) -> Binding {
    let arg = name.map_or_else(|| format!("arg{i}"), str::to_string);
    let global = l.out.globals.append(ir::Global {
        name: format!("{kernel}.{arg}"),
        ty: t,
        space: AddressSpace::Constant,
        init: None,
        is_constant: false,
        align: None,
        linkage: ir::Linkage::Internal,
    });
    *bindings += 1;
    Binding {
        descriptor_set: 0,
        binding: *bindings - 1,
        global,
    }
}

/// The storage buffer behind pointer argument `i` (`name`) of kernel `kernel`: a Block
/// struct whose one member is a runtime array of `elem`.
fn storage_buffer(
    l: &mut Lowerer,
    kernel: &str,
    name: Option<&str>,
    i: usize,
    elem: Handle<Type>,
) -> Handle<ir::Global> {
    let array = l.out.ty(Type::RuntimeArray { elem });
    let arg = name.map_or_else(|| format!("arg{i}"), str::to_string);
    l.storage_buffer(
        format!("{kernel}.{arg}"),
        format!("{kernel}.{arg}.buffer"),
        vec![array],
    )
}
