# examples: textclf, a small text classifier built from libgpuk's ops
# (token ids -> embedding -> linear + ReLU -> mean pool -> linear -> softmax).
noinst_PROGRAMS += examples/textclf/textclf
examples_textclf_textclf_SOURCES = \
	examples/textclf/main.c \
	examples/textclf/model.c \
	examples/textclf/model.h \
	examples/textclf/net.c \
	examples/textclf/net.h
examples_textclf_textclf_LDADD = src/libgpuk.la $(LIBM)

TESTS += examples/textclf/test-textclf.sh
EXTRA_DIST += \
	examples/textclf/test-textclf.sh \
	examples/textclf/FORMAT.md \
	examples/textclf/README.md \
	examples/textclf/torch_compare.py

# examples: readme, the program that README.md shows under "Using it" (the
# code block is the whole of matmul.c; test-readme.sh checks that they are
# the same, then runs it on every backend that can run here).  Built with
# gpuk.h alone on the include path, as a program of an installed copy's user.
noinst_PROGRAMS += examples/readme/matmul
examples_readme_matmul_SOURCES = examples/readme/matmul.c
examples_readme_matmul_CPPFLAGS = -I$(top_srcdir)/include
examples_readme_matmul_LDADD = src/libgpuk.la $(LIBM)

TESTS += examples/readme/test-readme.sh
EXTRA_DIST += examples/readme/test-readme.sh
