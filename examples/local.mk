# examples: textclf, the text classifier of seed 002 on libgpuk's ops
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
