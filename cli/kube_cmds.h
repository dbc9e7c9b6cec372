// The `smdx` commands that work like the apiserver on Kubernetes objects
// (through fieldmanager/field_manager.h):
//
//   smdx apply  --field-manager NAME [--force-conflicts] [--live LIVE] CONFIG
//   smdx update --field-manager NAME [--live LIVE] OBJECT
//   smdx diff   --field-manager NAME [--force-conflicts] [--html] [LIVE] CONFIG
//   smdx blame  [--html] LIVE
//
// apply and update print the object the server would store. diff prints
// what an apply would change: a unified diff of the object (without
// managedFields, as `kubectl diff` shows it), the ownership that moves, and
// the conflicts. blame prints every field of an object with its owners.
// With --html, diff and blame write one self-contained page instead
// (cli/html_page.h).
#ifndef SMDX_CLI_KUBE_CMDS_H_
#define SMDX_CLI_KUBE_CMDS_H_

#include <iosfwd>

#include "cli/common.h"

namespace smdx::cli {

// Exit status: 0 on success, 2 on conflicts, 1 on any other error.
int CmdApply(const Flags& f, bool apply, std::istream& in, std::ostream& out,
             std::ostream& err);
// Exit status: 0 when nothing would change, 1 when something would, 2 on
// conflicts or errors (as `kubectl diff`: above 1 means it failed).
// `smdx patch`: a strategic, merge or JSON patch of each live object
// (kubectl patch --type strategic|merge|json), as the apiserver's patch
// handler runs it.
int CmdPatch(const Flags& f, std::istream& in, std::ostream& out,
             std::ostream& err);
int CmdDiff(const Flags& f, std::istream& in, std::ostream& out,
            std::ostream& err);
int CmdBlame(const Flags& f, std::istream& in, std::ostream& out,
             std::ostream& err);

}  // namespace smdx::cli

#endif  // SMDX_CLI_KUBE_CMDS_H_
