# Warnings for the project's own targets (not for generated protobuf code).
function(qatdoctor_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()
