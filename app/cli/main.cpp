#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli_command.h"
#ifdef QATDOCTOR_WITH_GUI
#include "app/cli/gui_pdf_renderer.h"
#include "app/cli/image_decoder.h"
#endif

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
#ifdef QATDOCTOR_WITH_GUI
    qatdoctor::cli::installGuiPdfRenderer(argc, argv);
    qatdoctor::cli::installGuiImageDecoder();
#endif
    std::vector<std::string> args(argv + 1, argv + argc);
    return qatdoctor::cli::runCli(args, {std::cout, std::cerr});
}
