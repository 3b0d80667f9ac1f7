//! A walk over LLVM's bitstream container, before LLVM's own reader sees the bytes, for the
//! corrupted counts that LLVM 14 trusts.
//!
//! LLVM's reader sizes some tables from a count read in the bitcode before any of the table's
//! entries: `TYPE_CODE_NUMENTRY` (the type table) and `FUNC_CODE_DECLAREBLOCKS` (a function's
//! basic blocks). A corrupted count makes it `resize` a vector of pointers to that length and
//! fill it with zeros: a 2 KB file whose count became 2^31 - 1 touched 2 GB of memory, four
//! seconds of system time, before the memory limit stopped it (the reader is contained, see
//! `crate::contain`, so the limit answers; this answers at once, in words).
//!
//! Every entry of those tables takes at least one bit of its block, so a count above the
//! block's size in bits cannot be right. Only those two counts are judged: any other
//! trouble (a bitstream this walk cannot follow) is left to LLVM's reader, which reports it.
//!
//! The format (LLVM's "LLVM Bitcode File Format" document): after the magic, a stream of
//! abbreviated items whose id width each block sets; ids 0 to 3 end a block, enter a block,
//! define an abbreviation and give an unabbreviated record; each block states its length in
//! 32-bit words, which lets a reader skip it; the BLOCKINFO block (id 0) defines abbreviations
//! for other blocks.

use std::collections::HashMap;

const BLOCKINFO: u64 = 0;
const MODULE_BLOCK: u64 = 8;
const FUNCTION_BLOCK: u64 = 12;
const TYPE_BLOCK: u64 = 17;
/// The record that opens the two tables: `TYPE_CODE_NUMENTRY`, `FUNC_CODE_DECLAREBLOCKS`.
const COUNT_RECORD: u64 = 1;

/// One operand of an abbreviation.
#[derive(Clone, Copy)]
enum Op {
    Literal(u64),
    Fixed(u32),
    Vbr(u32),
    Array,
    Char6,
    Blob,
}

/// A corrupted count found in `bytes` (LLVM bitcode, maybe in its wrapper header), as the
/// error to report; `None` when none is found.
pub(super) fn corrupted_count(bytes: &[u8]) -> Option<String> {
    let body = unwrap(bytes)?;
    if body.get(..4)? != b"BC\xC0\xDE" {
        return None;
    }
    let mut walk = Walk {
        bits: Bits {
            bytes: body,
            at: 32,
        },
        blockinfo: HashMap::new(),
        functions: 0,
    };
    walk.block(None, 2, body.len() as u64 * 8).err()?
}

/// The bitcode inside LLVM's wrapper header (magic 0x0B17C0DE, then offset and size), or the
/// bytes themselves.
fn unwrap(bytes: &[u8]) -> Option<&[u8]> {
    let word = |i: usize| Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    if word(0)? != 0x0B17_C0DE {
        return Some(bytes);
    }
    let (offset, size) = (word(8)? as usize, word(12)? as usize);
    bytes.get(offset..offset.checked_add(size)?)
}

/// A reader of little-endian bit fields.
struct Bits<'a> {
    bytes: &'a [u8],
    at: u64,
}

impl Bits<'_> {
    fn fixed(&mut self, width: u32) -> Option<u64> {
        if width > 57 || self.at + u64::from(width) > self.bytes.len() as u64 * 8 {
            return None;
        }
        let first = (self.at / 8) as usize;
        let mut window = [0u8; 8];
        let have = &self.bytes[first..(first + 8).min(self.bytes.len())];
        window[..have.len()].copy_from_slice(have);
        let v = (u64::from_le_bytes(window) >> (self.at % 8)) & ((1u64 << width) - 1);
        self.at += u64::from(width);
        Some(v)
    }

    fn vbr(&mut self, width: u32) -> Option<u64> {
        if !(2..=32).contains(&width) {
            return None;
        }
        let high = 1u64 << (width - 1);
        let (mut v, mut shift) = (0u64, 0u32);
        loop {
            let piece = self.fixed(width)?;
            if shift >= 64 {
                return None;
            }
            v |= (piece & (high - 1)) << shift;
            if piece & high == 0 {
                return Some(v);
            }
            shift += width - 1;
        }
    }

    fn align32(&mut self) {
        self.at = self.at.div_ceil(32) * 32;
    }
}

/// The walk: where it is, the abbreviations BLOCKINFO gave each block id, and how many
/// function bodies it has passed (to name the one with a bad count).
struct Walk<'a> {
    bits: Bits<'a>,
    blockinfo: HashMap<u64, Vec<Vec<Op>>>,
    functions: u64,
}

/// Why a walk stopped early: a corrupted count (the error), or a stream it cannot follow
/// (`None`: LLVM judges it).
type Stop = Option<String>;

impl Walk<'_> {
    /// The items of one block (`id`; `None` for the top level) up to its end at bit `end`.
    fn block(&mut self, id: Option<u64>, width: u32, end: u64) -> Result<(), Stop> {
        let mut abbrevs: Vec<Vec<Op>> = id
            .and_then(|id| self.blockinfo.get(&id).cloned())
            .unwrap_or_default();
        let mut info_target = None;
        while self.bits.at < end {
            match self.bits.fixed(width).ok_or(None)? {
                0 => {
                    self.bits.align32();
                    return Ok(());
                }
                1 => self.sub_block()?,
                2 => {
                    let abbrev = self.define_abbrev()?;
                    match (id, info_target) {
                        (Some(BLOCKINFO), Some(target)) => {
                            self.blockinfo.entry(target).or_default().push(abbrev)
                        }
                        _ => abbrevs.push(abbrev),
                    }
                }
                n => {
                    let record = match n {
                        3 => self.unabbreviated()?,
                        n => {
                            let abbrev = abbrevs.get((n - 4) as usize).ok_or(None)?.clone();
                            self.abbreviated(&abbrev)?
                        }
                    };
                    if id == Some(BLOCKINFO) && record.first() == Some(&1) {
                        info_target = record.get(1).copied();
                    }
                    self.judge(id, &record, end)?;
                    // The count is a table's first record: the rest of the block is skipped.
                    if matches!(id, Some(FUNCTION_BLOCK | TYPE_BLOCK)) {
                        return Ok(());
                    }
                }
            }
        }
        // A top level ends with the stream; a block that runs to its stated end without an
        // END_BLOCK is LLVM's to report.
        match id {
            None => Ok(()),
            Some(_) => Err(None),
        }
    }

    /// ENTER_SUBBLOCK: the blocks that hold the two tables are walked, the others skipped by
    /// their stated length.
    fn sub_block(&mut self) -> Result<(), Stop> {
        let id = self.bits.vbr(8).ok_or(None)?;
        let width = self.bits.vbr(4).ok_or(None)? as u32;
        self.bits.align32();
        let words = self.bits.fixed(32).ok_or(None)?;
        let end = self.bits.at + words * 32;
        if end > self.bits.bytes.len() as u64 * 8 || width == 0 || width > 32 {
            return Err(None);
        }
        if id == FUNCTION_BLOCK {
            self.functions += 1;
        }
        match id {
            BLOCKINFO | MODULE_BLOCK | FUNCTION_BLOCK | TYPE_BLOCK => {
                self.block(Some(id), width, end)?;
                self.bits.at = end;
            }
            _ => self.bits.at = end,
        }
        Ok(())
    }

    fn define_abbrev(&mut self) -> Result<Vec<Op>, Stop> {
        let n = self.bits.vbr(5).ok_or(None)?;
        let mut ops = Vec::new();
        for _ in 0..n {
            let literal = self.bits.fixed(1).ok_or(None)? == 1;
            let op = if literal {
                Op::Literal(self.bits.vbr(8).ok_or(None)?)
            } else {
                match self.bits.fixed(3).ok_or(None)? {
                    1 => Op::Fixed(self.bits.vbr(5).ok_or(None)? as u32),
                    2 => Op::Vbr(self.bits.vbr(5).ok_or(None)? as u32),
                    3 => Op::Array,
                    4 => Op::Char6,
                    5 => Op::Blob,
                    _ => return Err(None),
                }
            };
            ops.push(op);
            if ops.len() > 4096 {
                return Err(None);
            }
        }
        Ok(ops)
    }

    /// UNABBREV_RECORD: code, count, operands (all VBR6); the code first in the result.
    fn unabbreviated(&mut self) -> Result<Vec<u64>, Stop> {
        let code = self.bits.vbr(6).ok_or(None)?;
        let n = self.bits.vbr(6).ok_or(None)?;
        let mut record = vec![code];
        for _ in 0..n {
            record.push(self.bits.vbr(6).ok_or(None)?);
        }
        Ok(record)
    }

    /// A record under `abbrev`; only its first two values are kept (the code and the count).
    fn abbreviated(&mut self, abbrev: &[Op]) -> Result<Vec<u64>, Stop> {
        let mut record = Vec::new();
        let mut ops = abbrev.iter();
        while let Some(op) = ops.next() {
            match op {
                Op::Array => {
                    let element = *ops.next().ok_or(None)?;
                    let n = self.bits.vbr(6).ok_or(None)?;
                    for _ in 0..n {
                        let v = self.scalar(element)?;
                        if record.len() < 2 {
                            record.push(v);
                        }
                    }
                }
                Op::Blob => {
                    let n = self.bits.vbr(6).ok_or(None)?;
                    self.bits.align32();
                    self.bits.at = self.bits.at.checked_add(n * 8).ok_or(None)?;
                    self.bits.align32();
                }
                &op => {
                    let v = self.scalar(op)?;
                    if record.len() < 2 {
                        record.push(v);
                    }
                }
            }
        }
        Ok(record)
    }

    fn scalar(&mut self, op: Op) -> Result<u64, Stop> {
        match op {
            Op::Literal(v) => Ok(v),
            Op::Fixed(w) => self.bits.fixed(w).ok_or(None),
            Op::Vbr(w) => self.bits.vbr(w).ok_or(None),
            Op::Char6 => self.bits.fixed(6).ok_or(None),
            Op::Array | Op::Blob => Err(None),
        }
    }

    /// A count record of the type table or of a function body, against its block's size.
    fn judge(&self, id: Option<u64>, record: &[u64], end: u64) -> Result<(), Stop> {
        let (Some(&COUNT_RECORD), Some(&count)) = (record.first(), record.get(1)) else {
            return Ok(());
        };
        let room = end.saturating_sub(self.bits.at);
        if count <= room {
            return Ok(());
        }
        let bytes = room.div_ceil(8);
        match id {
            Some(TYPE_BLOCK) => Err(Some(format!(
                "the type table says it holds {count} types in {bytes} bytes (a corrupted \
                 count)"
            ))),
            Some(FUNCTION_BLOCK) => Err(Some(format!(
                "function body {} says it has {count} basic blocks in {bytes} bytes (a \
                 corrupted count)",
                self.functions
            ))),
            _ => Ok(()),
        }
    }
}
