//! OpenCL C spellings of the graph's types, and the definitions (structs, array typedefs)
//! the program needs before its first use of them.

use super::names::Scope;
use super::Needs;
use crate::diag::{Error, Result};
use crate::hash::HashMap;
use crate::ir::{self, AddressSpace, Handle, Type};
use crate::spir::opencl_names::image_base;

/// The program's named types: struct tags, array typedefs, and their definitions in an order
/// where each comes after what it holds.
#[derive(Default)]
pub struct Types {
    names: HashMap<Handle<Type>, String>,
    defined: HashMap<Handle<Type>, bool>,
    /// `struct S;` for every struct named.
    pub forward: Vec<String>,
    /// Struct bodies and typedefs, each after the ones it holds by value.
    pub definitions: Vec<String>,
}

/// An integer type's unsigned name (graph integers are signless; the output computes on
/// unsigned values, which wrap as LLVM's do).
pub fn uint_name(width: u32) -> Option<&'static str> {
    Some(match width {
        8 => "uchar",
        16 => "ushort",
        32 => "uint",
        64 => "ulong",
        _ => return None,
    })
}

/// The signed name of an integer width.
pub fn sint_name(width: u32) -> Option<&'static str> {
    Some(match width {
        8 => "char",
        16 => "short",
        32 => "int",
        64 => "long",
        _ => return None,
    })
}

/// The address-space qualifier of a pointer's pointee (`None`: the generic space, which
/// OpenCL C 2.0 writes without one).
pub fn space_word(space: AddressSpace) -> Result<Option<&'static str>> {
    Ok(Some(match space {
        AddressSpace::Private => "__private",
        AddressSpace::Global => "__global",
        AddressSpace::Constant => "__constant",
        AddressSpace::Local => "__local",
        AddressSpace::Generic => return Ok(None),
        other => {
            return Err(Error::unsupported(format!(
                "a pointer into {other:?} memory (a graph lowered for Vulkan)"
            )))
        }
    }))
}

impl Types {
    /// The spelling of `t` as the type of a declaration or cast (`__global float *`,
    /// `uint4`, `struct Particle`), registering what it names.
    pub fn name(
        &mut self,
        m: &ir::Module,
        scope: &mut Scope,
        needs: &mut Needs,
        t: Handle<Type>,
    ) -> Result<String> {
        Ok(match &m.types[t] {
            Type::Void => "void".into(),
            Type::Bool => "bool".into(),
            Type::Int { width } => uint_name(*width)
                .ok_or_else(|| Error::unsupported(format!("a {width}-bit integer")))?
                .into(),
            Type::Float { width } => float_name(*width, needs)?.into(),
            Type::Vector { elem, len } => match m.types[*elem] {
                // A vector of truth values is an int vector, -1 for true (OpenCL C's
                // relational results).
                Type::Bool => format!("int{len}"),
                Type::Int { width } => format!(
                    "{}{len}",
                    uint_name(width)
                        .ok_or_else(|| Error::unsupported("a vector of odd integers"))?
                ),
                Type::Float { width } => format!("{}{len}", float_name(width, needs)?),
                _ => return Err(Error::unsupported("a vector of non-scalars")),
            },
            Type::Pointer { pointee, space } => {
                let inner = self.name(m, scope, needs, *pointee)?;
                let word = space_word(*space)?;
                if word.is_none() {
                    needs.version(2, 0, "a generic pointer");
                }
                match (word, &m.types[*pointee]) {
                    (Some(w), Type::Pointer { .. }) => format!("{inner} {w} *"),
                    (Some(w), _) => format!("{w} {inner} *"),
                    (None, _) => format!("{inner} *"),
                }
            }
            Type::Array { .. } | Type::Struct { .. } => self.named(m, scope, needs, t)?,
            Type::Image(i) => {
                let access = match i.access {
                    Some(ir::Access::WriteOnly) => "write_only",
                    Some(ir::Access::ReadWrite) => {
                        needs.version(2, 0, "a read_write image");
                        "read_write"
                    }
                    _ => "read_only",
                };
                if i.depth || i.multisampled {
                    needs.extension(if i.multisampled {
                        "cl_khr_gl_msaa_sharing"
                    } else {
                        "cl_khr_depth_images"
                    });
                }
                format!("{access} {}_t", image_base(i))
            }
            Type::Sampler => "sampler_t".into(),
            Type::Event => "event_t".into(),
            Type::DeviceEvent => {
                needs.version(2, 0, "clk_event_t");
                "clk_event_t".into()
            }
            Type::Queue => {
                needs.version(2, 0, "queue_t");
                "queue_t".into()
            }
            Type::ReserveId => {
                needs.version(2, 0, "reserve_id_t");
                "reserve_id_t".into()
            }
            _ => {
                return Err(Error::unsupported(format!(
                    "a value of type {}",
                    crate::ir::print::type_text(m, t)
                )))
            }
        })
    }

    /// The name of a struct or array type, defined (after what it holds) on first use.
    fn named(
        &mut self,
        m: &ir::Module,
        scope: &mut Scope,
        needs: &mut Needs,
        t: Handle<Type>,
    ) -> Result<String> {
        if let Some(n) = self.names.get(&t) {
            return Ok(n.clone());
        }
        match &m.types[t] {
            Type::Struct { name: Some(n), .. } if n == "struct.ndrange_t" => {
                needs.version(2, 0, "ndrange_t");
                Ok("ndrange_t".into())
            }
            Type::Struct {
                name,
                members,
                packed,
            } => {
                let tag = scope.fresh(
                    name.as_deref()
                        .map(|n| n.trim_start_matches("struct.").trim_start_matches("class.")),
                    "anon",
                );
                let spelled = format!("struct {tag}");
                self.names.insert(t, spelled.clone());
                self.forward.push(format!("{spelled};\n"));
                let Some(members) = members else {
                    return Ok(spelled);
                };
                self.defined.insert(t, false);
                let mut body = format!("{spelled} {{\n");
                for (i, &mt) in members.iter().enumerate() {
                    let mt_name = self.name(m, scope, needs, mt)?;
                    body.push_str(&format!("  {};\n", declare(&mt_name, &format!("m{i}"))));
                }
                body.push('}');
                if *packed {
                    body.push_str(" __attribute__((packed))");
                }
                body.push_str(";\n");
                self.definitions.push(body);
                self.defined.insert(t, true);
                Ok(spelled)
            }
            Type::Array { elem, len } => {
                let e = self.name(m, scope, needs, *elem)?;
                let base = super::names::legal(&e.replace(['*', ' '], "_"));
                let name = scope.fresh(Some(&format!("{base}_array{len}")), "array");
                self.definitions
                    .push(format!("typedef {} [{len}];\n", e).replacen(
                        " [",
                        &format!(" {name}["),
                        1,
                    ));
                self.names.insert(t, name.clone());
                Ok(name)
            }
            _ => Err(Error::internal(
                "a named type that is neither struct nor array",
            )),
        }
    }
}

/// `float`, `double` or `half`, with the extension each needs.
fn float_name(width: u32, needs: &mut Needs) -> Result<&'static str> {
    Ok(match width {
        16 => {
            needs.extension("cl_khr_fp16");
            "half"
        }
        32 => "float",
        64 => {
            needs.extension("cl_khr_fp64");
            "double"
        }
        w => return Err(Error::unsupported(format!("a {w}-bit float"))),
    })
}

/// `ty name` (`__global float *p`, `uint n`).
pub fn declare(ty: &str, name: &str) -> String {
    if ty.ends_with('*') {
        format!("{ty}{name}")
    } else {
        format!("{ty} {name}")
    }
}
