// Declarations only: see include/CFuzzer.h. SwiftPM needs a source file in a C target.
#include "CFuzzer.h"
