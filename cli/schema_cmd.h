// `smdx schema ...`: schema conversion commands.
//
//   smdx schema convert FILE   FILE (an OpenAPI v2 or v3 document, an OpenAPI
//                              schema object, a CustomResourceDefinition or an
//                              SMD schema; `-` for stdin) as an SMD schema.
//                              A CRD prints one YAML document per version,
//                              each headed by a comment naming it.
#ifndef SMDX_CLI_SCHEMA_CMD_H_
#define SMDX_CLI_SCHEMA_CMD_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace smdx::cli {

// Runs `smdx schema ARGS...` (args excludes "smdx" and "schema"); returns
// the exit status: 0 on success, 1 when the input cannot be converted, 2 on
// a usage error.
int CmdSchema(const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);

}  // namespace smdx::cli

#endif  // SMDX_CLI_SCHEMA_CMD_H_
