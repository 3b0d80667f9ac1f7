//! OpenCL C names of the work-group and sub-group collectives (`work_group_reduce_add`,
//! `sub_group_non_uniform_scan_inclusive_max`, `sub_group_ballot`, ...), both directions, over
//! the rows of mappings/groups.toml.

use spirv::{GroupOperation, Scope};

use crate::ir::GroupOp;

use crate::mappings::{GroupSpelling, GROUP_SPELLINGS};

/// The collectives a `*` in a row's name stands for.
const COLLECTIVES: [(&str, GroupOperation); 3] = [
    ("reduce", GroupOperation::Reduce),
    ("scan_inclusive", GroupOperation::InclusiveScan),
    ("scan_exclusive", GroupOperation::ExclusiveScan),
];

/// A collective's OpenCL C name, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupName {
    pub row: &'static GroupSpelling,
    pub scope: Scope,
    pub operation: Option<GroupOperation>,
}

fn prefix(scope: Scope) -> Option<&'static str> {
    match scope {
        Scope::Workgroup => Some("work_group_"),
        Scope::Subgroup => Some("sub_group_"),
        _ => None,
    }
}

/// The rows a scope can spell: OpenCL C has no work-group form of the non-uniform ones.
fn rows(scope: Scope) -> impl Iterator<Item = &'static GroupSpelling> {
    GROUP_SPELLINGS
        .iter()
        .filter(move |r| scope == Scope::Subgroup || r.work_group)
}

/// Read an (unmangled) OpenCL C name; `None` if it is not a collective.
pub fn parse(name: &str) -> Option<GroupName> {
    let (scope, rest) = [Scope::Workgroup, Scope::Subgroup]
        .into_iter()
        .find_map(|s| Some((s, name.strip_prefix(prefix(s)?)?)))?;
    rows(scope).find_map(|row| {
        let operation = match row.name.split_once('*') {
            None => (row.name == rest).then_some(row.operation)?,
            Some((pre, post)) => {
                let mid = rest.strip_prefix(pre)?.strip_suffix(post)?;
                Some(COLLECTIVES.iter().find(|(c, _)| *c == mid)?.1)
            }
        };
        Some(GroupName {
            row,
            scope,
            operation,
        })
    })
}

/// The OpenCL C name of a collective and its row; `None` where OpenCL C has none.
pub fn spell(
    op: GroupOp,
    scope: Scope,
    operation: Option<GroupOperation>,
) -> Option<(String, &'static GroupSpelling)> {
    let prefix = prefix(scope)?;
    rows(scope)
        .filter(|r| {
            let o = &r.ops;
            [o.any, o.float, o.signed, o.unsigned].contains(&Some(op))
        })
        .find_map(|row| {
            let name = match row.name.split_once('*') {
                None => (row.operation == operation).then(|| row.name.to_string())?,
                Some((pre, post)) => {
                    let (c, _) = COLLECTIVES.iter().find(|(_, o)| Some(*o) == operation)?;
                    format!("{pre}{c}{post}")
                }
            };
            Some((format!("{prefix}{name}"), row))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spelling of every row reads back as the instruction, scope and operation it was
    /// spelled from.
    #[test]
    fn every_spelling_reads_back() {
        let mut n = 0;
        for row in GROUP_SPELLINGS {
            let o = &row.ops;
            let ops = [o.any, o.float, o.signed, o.unsigned];
            let operations: Vec<Option<GroupOperation>> = if row.name.contains('*') {
                COLLECTIVES.iter().map(|(_, o)| Some(*o)).collect()
            } else {
                vec![row.operation]
            };
            for op in ops.into_iter().flatten() {
                for &operation in &operations {
                    for scope in [Scope::Workgroup, Scope::Subgroup] {
                        let Some((name, r)) = spell(op, scope, operation) else {
                            assert!(scope == Scope::Workgroup && !row.work_group, "{row:?}");
                            continue;
                        };
                        let back = parse(&name).unwrap_or_else(|| panic!("{name}"));
                        assert_eq!(
                            (back.row, back.scope, back.operation),
                            (r, scope, operation)
                        );
                        assert!([r.ops.any, r.ops.float, r.ops.signed, r.ops.unsigned]
                            .contains(&Some(op)));
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 100, "{n} spellings");
        assert_eq!(
            spell(
                GroupOp::IAdd,
                Scope::Workgroup,
                Some(GroupOperation::Reduce)
            )
            .unwrap()
            .0,
            "work_group_reduce_add"
        );
        assert_eq!(
            spell(
                GroupOp::NonUniformUMax,
                Scope::Subgroup,
                Some(GroupOperation::ClusteredReduce)
            )
            .unwrap()
            .0,
            "sub_group_clustered_reduce_max"
        );
        assert!(spell(GroupOp::NonUniformElect, Scope::Workgroup, None).is_none());
        assert!(parse("work_group_barrier").is_none());
        assert!(parse("sub_group_reduce_sub").is_none());
    }
}
