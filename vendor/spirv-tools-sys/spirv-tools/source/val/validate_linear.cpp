// Linear-time versions of two of the validator's whole-module checks (spir-xlate's patch to
// SPIRV-Tools; vendor/README.md tells how it is kept, Apache-2.0 as SPIRV-Tools is).
//
// spir-xlate validates every module it writes in-process. Two of the validator's whole-module
// checks take time quadratic in the module:
//
// * `ValidationState_t::ComputeRecursiveEntryPoints` searched the call graph once from every
//   function to find those that can reach themselves: O(functions x calls). A chain of 10,000
//   calls (100 k instructions) spent 5.8 of its 6.1 s there.
// * `PerformCfgChecks` checks that every block comes after its immediate dominator in the
//   binary by searching the function's block list from its start, once per block:
//   O(blocks^2) in one long function.
//
// This file answers the same questions in linear time: the functions on a call cycle are those
// of a strongly connected component with more than one function or a call to itself (Tarjan's
// algorithm), and a block's place in the list is looked up by its id. While it has the CFG
// checks in hand, it also computes the immediate dominators those checks set with the same
// algorithm over vectors indexed by id, where the general checks hash every block on every
// visit (1 M instructions of control flow: validation 4.9 -> 3.7 s). The results are the same
// sets and the same first error with the same words, in the same order of checking; modules
// with the Shader capability (Vulkan) go to the general checks (PerformCfgChecksGeneral in
// validate_cfg.cpp), whose structured control-flow checks are not replaced.
//
// With SPIR_XLATE_CHECK_LINEAR defined (the vendored crate's build.rs defines it in debug
// builds), every call also runs the original routine (ComputeRecursiveEntryPointsBySearch,
// PerformCfgChecksGeneral) and aborts with a message if the two disagree (in result, or in any
// dominator it set), so spir-xlate's debug test suite checks the replacement on every module
// it validates.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "source/val/basic_block.h"
#include "source/val/function.h"
#include "source/val/validate.h"
#include "source/val/validation_state.h"

namespace spvtools {
namespace val {
// Defined in validate_cfg.cpp with external linkage, declared in no header.
spv_result_t MaximalReconvergenceChecks(ValidationState_t& _);
}  // namespace val
}  // namespace spvtools

using spvtools::val::BasicBlock;
using spvtools::val::Function;
using spvtools::val::ValidationState_t;

namespace {

// The entry points that can reach a function on a call cycle, found in linear time.
std::set<uint32_t> RecursiveEntryPoints(ValidationState_t& _) {
  std::vector<Function>& functions = _.functions();
  const size_t n = functions.size();
  std::unordered_map<const Function*, size_t> index;
  index.reserve(n);
  for (size_t i = 0; i < n; ++i) index.emplace(&functions[i], i);

  // Calls, as indices. A call of an id that is no function here has no successors, as in
  // the original search (other checks report it).
  std::vector<std::vector<size_t>> calls(n);
  std::vector<bool> on_cycle(n, false);
  for (size_t i = 0; i < n; ++i) {
    for (const uint32_t target : functions[i].function_call_targets()) {
      const Function* callee = _.function(target);
      if (!callee) continue;
      auto at = index.find(callee);
      if (at == index.end()) continue;
      if (at->second == i) on_cycle[i] = true;
      calls[i].push_back(at->second);
    }
  }

  // Tarjan's strongly connected components, iteratively: a component of more than one
  // function is a cycle through each of them.
  constexpr size_t kUnseen = std::numeric_limits<size_t>::max();
  std::vector<size_t> order(n, kUnseen), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<size_t> stack;
  std::vector<std::pair<size_t, size_t>> work;  // (function, next call to follow)
  size_t counter = 0;
  auto visit = [&](size_t v) {
    order[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    work.emplace_back(v, 0);
  };
  for (size_t root = 0; root < n; ++root) {
    if (order[root] != kUnseen) continue;
    visit(root);
    while (!work.empty()) {
      const size_t v = work.back().first;
      const size_t next = work.back().second;
      if (next < calls[v].size()) {
        work.back().second = next + 1;
        const size_t w = calls[v][next];
        if (order[w] == kUnseen) {
          visit(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], order[w]);
        }
        continue;
      }
      work.pop_back();
      if (!work.empty()) {
        const size_t parent = work.back().first;
        low[parent] = std::min(low[parent], low[v]);
      }
      if (low[v] != order[v]) continue;
      size_t size = 0;
      const size_t bottom = stack.size();
      size_t top = bottom;
      do {
        --top;
        ++size;
      } while (stack[top] != v);
      for (size_t k = top; k < bottom; ++k) {
        on_stack[stack[k]] = false;
        if (size > 1) on_cycle[stack[k]] = true;
      }
      stack.resize(top);
    }
  }

  std::set<uint32_t> recursive;
  for (size_t i = 0; i < n; ++i) {
    if (!on_cycle[i]) continue;
    for (const uint32_t entry_point : _.FunctionEntryPoints(functions[i].id())) {
      recursive.insert(entry_point);
    }
  }
  return recursive;
}

#ifdef SPIR_XLATE_CHECK_LINEAR
[[noreturn]] void Disagree(const char* what) {
  std::fprintf(stderr,
               "SPIRV-Tools: the linear %s disagrees with the original "
               "(source/val/validate_linear.cpp)\n",
               what);
  std::abort();
}
#endif

// Immediate dominators of a function's blocks, set as PerformCfgChecks sets them: the blocks
// reached from the first block over the augmented CFG (which can reach the pseudo-exit block),
// each but the first given its immediate dominator. The original finds them with the iterative
// algorithm of Cooper, Harvey and Kennedy over a hash map from block to postorder number, and a
// depth-first search through hash sets and std::function calls; this is the same algorithm over
// vectors. Immediate dominators are unique, so the answers agree whatever the search order.
//
// `number` has a slot for every block id, all kUnnumbered on entry and again on return (the
// pseudo-exit block, whose id is no block's, is numbered apart); it is kept across functions so
// that each costs time in its own blocks only.
constexpr uint32_t kUnnumbered = std::numeric_limits<uint32_t>::max();

// The slot of `id` in `number`. Every block's id is below the bound by the time the CFG is
// checked (the instruction pass checks each result id), but a slot is made if not.
uint32_t& Slot(std::vector<uint32_t>& number, uint32_t id) {
  if (id >= number.size()) number.resize(size_t{id} + 1, kUnnumbered);
  return number[id];
}

void SetDominators(Function& function, std::vector<uint32_t>& number) {
  if (function.ordered_blocks().empty()) return;
  const BasicBlock* const exit = function.pseudo_exit_block();
  uint32_t exit_number = kUnnumbered;
  auto slot = [&](const BasicBlock* b) -> uint32_t& {
    return b == exit ? exit_number : Slot(number, b->id());
  };

  // Depth-first search for a postorder; `slot` holds kUnnumbered - 1 while a block is on the
  // stack, then its postorder number.
  constexpr uint32_t kOnStack = kUnnumbered - 1;
  const auto successors = function.AugmentedCFGSuccessorsFunction();
  std::vector<const BasicBlock*> postorder;
  struct Frame {
    const BasicBlock* block;
    const std::vector<BasicBlock*>* successors;
    size_t next;
  };
  std::vector<Frame> stack;
  const BasicBlock* first = function.first_block();
  slot(first) = kOnStack;
  stack.push_back({first, successors(first), 0});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.successors->size()) {
      const BasicBlock* child = (*top.successors)[top.next++];
      if (slot(child) == kUnnumbered) {
        slot(child) = kOnStack;
        stack.push_back({child, successors(child), 0});
      }
      continue;
    }
    slot(top.block) = static_cast<uint32_t>(postorder.size());
    postorder.push_back(top.block);
    stack.pop_back();
  }

  // Cooper, Harvey and Kennedy: the dominator of each block as a postorder number.
  const size_t n = postorder.size();
  const uint32_t undefined = static_cast<uint32_t>(n);
  const auto predecessors_of = function.AugmentedCFGPredecessorsFunction();
  std::vector<const std::vector<BasicBlock*>*> predecessors(n);
  for (size_t i = 0; i < n; ++i) predecessors[i] = predecessors_of(postorder[i]);
  // A predecessor's number, or `undefined` for one the search did not reach.
  auto numbered = [&](const BasicBlock* p) -> uint32_t {
    const uint32_t k = slot(p);
    return k < n ? k : undefined;
  };
  std::vector<uint32_t> dom(n, undefined);
  dom[n - 1] = static_cast<uint32_t>(n - 1);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n - 1; i-- > 0;) {
      uint32_t idom = undefined;
      for (const BasicBlock* p : *predecessors[i]) {
        const uint32_t k = numbered(p);
        if (k == undefined || dom[k] == undefined) continue;
        if (idom == undefined) {
          idom = k;
          continue;
        }
        uint32_t f1 = k, f2 = idom;
        while (f1 != f2) {
          while (f1 < f2) f1 = dom[f1];
          while (f2 < f1) f2 = dom[f2];
        }
        idom = f1;
      }
      if (idom != undefined && dom[i] != idom) {
        dom[i] = idom;
        changed = true;
      }
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (dom[i] != undefined && dom[i] != i) {
      const_cast<BasicBlock*>(postorder[i])
          ->SetImmediateDominator(const_cast<BasicBlock*>(postorder[dom[i]]));
    }
  }
  for (const BasicBlock* b : postorder) slot(b) = kUnnumbered;
}

// PerformCfgChecks for a module without the Shader capability.
spv_result_t KernelCfgChecks(ValidationState_t& _) {
  std::vector<uint32_t> number(_.getIdBound(), kUnnumbered);
  for (auto& function : _.functions()) {
    if (function.undefined_block_count() != 0) {
      // The original's words, spacing included.
      std::string blocks("{");
      bool first = true;
      for (auto block : function.undefined_blocks()) {
        blocks += _.getIdName(block);
        if (!first) blocks += " ";
        first = false;
      }
      return _.diag(SPV_ERROR_INVALID_CFG, _.FindDef(function.id()))
             << "Block(s) " << blocks << "}"
             << " are referenced but not defined in function "
             << _.getIdName(function.id());
    }

    SetDominators(function, number);

    // Every block after its immediate dominator in the binary: each block's place, by id,
    // in `number` (empty again after SetDominators), then taken out again.
    const auto& blocks = function.ordered_blocks();
    for (size_t i = 0; i < blocks.size(); ++i) {
      Slot(number, blocks[i]->id()) = static_cast<uint32_t>(i);
    }
    spv_result_t order = SPV_SUCCESS;
    for (size_t i = 1; i < blocks.size(); ++i) {
      const BasicBlock* idom = blocks[i]->immediate_dominator();
      if (!idom || idom == function.pseudo_entry_block()) continue;
      // The pseudo-exit block's id is no block's; it is in no place.
      const bool placed =
          idom != function.pseudo_exit_block() && Slot(number, idom->id()) < i;
      if (!placed) {
        order = _.diag(SPV_ERROR_INVALID_CFG, _.FindDef(idom->id()))
                << "Block " << _.getIdName(blocks[i]->id())
                << " appears in the binary before its dominator "
                << _.getIdName(idom->id());
        break;
      }
    }
    for (const BasicBlock* b : blocks) Slot(number, b->id()) = kUnnumbered;
    if (order != SPV_SUCCESS) return order;
  }
  return spvtools::val::MaximalReconvergenceChecks(_);
}

}  // namespace

namespace spvtools {
namespace val {

void ValidationState_t::ComputeRecursiveEntryPoints() {
  std::set<uint32_t> recursive = RecursiveEntryPoints(*this);
#ifdef SPIR_XLATE_CHECK_LINEAR
  const std::set<uint32_t> before = recursive_entry_points_;
  ComputeRecursiveEntryPointsBySearch();
  std::set<uint32_t> expected = recursive_entry_points_;
  recursive_entry_points_ = before;
  for (const uint32_t id : before) recursive.insert(id);
  if (recursive != expected) Disagree("search for recursive entry points");
#endif
  recursive_entry_points_.insert(recursive.begin(), recursive.end());
}

spv_result_t PerformCfgChecks(ValidationState_t& _) {
  if (_.HasCapability(spv::Capability::Shader)) return PerformCfgChecksGeneral(_);
  const spv_result_t result = KernelCfgChecks(_);
#ifdef SPIR_XLATE_CHECK_LINEAR
  // The dominators set here, then those the general checks set over them.
  auto dominators = [&_]() {
    std::vector<const BasicBlock*> out;
    for (auto& function : _.functions()) {
      for (const BasicBlock* b : function.ordered_blocks()) out.push_back(b->immediate_dominator());
      out.push_back(function.pseudo_exit_block()->immediate_dominator());
    }
    return out;
  };
  const std::vector<const BasicBlock*> ours = dominators();
  if (PerformCfgChecksGeneral(_) != result) Disagree("control-flow checks");
  if (dominators() != ours) Disagree("dominators");
#endif
  return result;
}

}  // namespace val
}  // namespace spvtools
