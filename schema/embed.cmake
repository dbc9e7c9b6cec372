# Turns a text file into a C++ source defining smdx::internal::kEmbeddedK8sSchema.
file(READ ${INPUT} content HEX)
string(LENGTH "${content}" hexlen)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${content}")
file(WRITE ${OUTPUT} "// Generated from ${INPUT}; do not edit.\n#include \"absl/strings/string_view.h\"\nnamespace smdx::internal {\nstatic const char kData[] = {${bytes} 0};\nextern const absl::string_view kEmbeddedK8sSchema(kData, sizeof(kData) - 1);\n}  // namespace smdx::internal\n")
