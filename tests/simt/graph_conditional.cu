// Conditional graph nodes (CUDA 12.4+): IF with an else body, WHILE
// counting down (its body captured with cudaStreamBeginCaptureToGraph),
// SWITCH over three bodies, each launched again with other values; the
// handle's default applied at every launch; nodes cudaGraphAddNode must
// refuse.  Every body kernel reads and writes the same buffer as the
// iteration before, which the loop orders.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

__global__ void set_from(const int *v, cudaGraphConditionalHandle h)
{
    cudaGraphSetConditional(h, (unsigned)*v);
}

__global__ void put(int *out, int k)
{
    *out = k;
}

// one iteration: out += 1; counter -= 1; go on while counter > 0
__global__ void step(int *counter, int *out, cudaGraphConditionalHandle h)
{
    *out += 1;
    *counter -= 1;
    cudaGraphSetConditional(h, *counter > 0 ? 1u : 0u);
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *dep, void *fn,
                                  void **args)
{
    cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};
    p.kernel.func = fn;
    p.kernel.gridDim = dim3(1);
    p.kernel.blockDim = dim3(1);
    p.kernel.kernelParams = args;
    cudaGraphNode_t n = NULL;
    if (cudaGraphAddNode(&n, g, dep, NULL, dep ? 1 : 0, &p) != cudaSuccess)
        return NULL;
    return n;
}

// A graph whose kernel sets a new handle from *dv, then a conditional
// node of the type and body count given after it; the bodies in *bodies.
static cudaGraph_t picker(int **dv, cudaGraphConditionalHandle *h,
                          enum cudaGraphConditionalNodeType type, unsigned size,
                          cudaGraph_t **bodies)
{
    cudaGraph_t g;
    if (cudaGraphCreate(&g, 0) != cudaSuccess ||
        cudaGraphConditionalHandleCreate(h, g, 0, 0) != cudaSuccess)
        return NULL;
    void *args[] = {dv, h};
    cudaGraphNode_t set = add_kernel(g, NULL, (void *)set_from, args), cond;
    cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
    p.conditional.handle = *h;
    p.conditional.type = type;
    p.conditional.size = size;
    if (!set || cudaGraphAddNode(&cond, g, &set, NULL, 1, &p) != cudaSuccess)
        return NULL;
    *bodies = p.conditional.phGraph_out;
    return g;
}

static int run(cudaGraphExec_t x, int *dv, int v, int *dout, int *out)
{
    CHECK(cudaMemcpy(dv, &v, sizeof v, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xff, sizeof(int)));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaMemcpy(out, dout, sizeof(int), cudaMemcpyDeviceToHost));
    return 0;
}

int main()
{
    int *dv, *dout, *dcount, out;
    CHECK(cudaMalloc(&dv, sizeof(int)));
    CHECK(cudaMalloc(&dout, sizeof(int)));
    CHECK(cudaMalloc(&dcount, sizeof(int)));

    // IF / else
    {
        cudaGraphConditionalHandle h;
        cudaGraph_t *body, g = picker(&dv, &h, cudaGraphCondTypeIf, 2, &body);
        expect_eq("if graph", 0, true, g != NULL);
        if (!g)
            return 1;
        int one = 1, two = 2;
        void *b1[] = {&dout, &one}, *b2[] = {&dout, &two};
        expect_eq("if bodies", 0, true,
                  add_kernel(body[0], NULL, (void *)put, b1) &&
                  add_kernel(body[1], NULL, (void *)put, b2));
        cudaGraphExec_t x;
        CHECK(cudaGraphInstantiate(&x, g, 0));
        if (run(x, dv, 5, dout, &out))
            return 1;
        expect_eq("if true", 0, 1, out);
        if (run(x, dv, 0, dout, &out))
            return 1;
        expect_eq("if false", 0, 2, out);
        CHECK(cudaGraphExecDestroy(x));
        CHECK(cudaGraphDestroy(g));
    }

    // WHILE, default 1 at every launch (a do-while), body captured
    {
        cudaGraph_t g;
        cudaGraphConditionalHandle h;
        CHECK(cudaGraphCreate(&g, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
        cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
        p.conditional.handle = h;
        p.conditional.type = cudaGraphCondTypeWhile;
        p.conditional.size = 1;
        cudaGraphNode_t cond;
        CHECK(cudaGraphAddNode(&cond, g, NULL, NULL, 0, &p));
        cudaStream_t s;
        CHECK(cudaStreamCreate(&s));
        CHECK(cudaStreamBeginCaptureToGraph(s, p.conditional.phGraph_out[0], NULL, NULL, 0,
                                            cudaStreamCaptureModeGlobal));
        step<<<1, 1, 0, s>>>(dcount, dout, h);
        CHECK(cudaStreamEndCapture(s, NULL));
        cudaGraphExec_t x;
        CHECK(cudaGraphInstantiate(&x, g, 0));
        for (int n = 5; n >= 1; n -= 4) {
            int zero = 0;
            CHECK(cudaMemcpy(dcount, &n, sizeof n, cudaMemcpyHostToDevice));
            CHECK(cudaMemcpy(dout, &zero, sizeof zero, cudaMemcpyHostToDevice));
            CHECK(cudaGraphLaunch(x, s));
            CHECK(cudaStreamSynchronize(s));
            CHECK(cudaMemcpy(&out, dout, sizeof out, cudaMemcpyDeviceToHost));
            expect_eq("while iterations", n, n, out);
        }
        CHECK(cudaGraphExecDestroy(x));
        CHECK(cudaGraphDestroy(g));
        CHECK(cudaStreamDestroy(s));
    }

    // SWITCH over three bodies; 3 matches none
    {
        cudaGraphConditionalHandle h;
        cudaGraph_t *body, g = picker(&dv, &h, cudaGraphCondTypeSwitch, 3, &body);
        expect_eq("switch graph", 0, true, g != NULL);
        if (!g)
            return 1;
        int k[3] = {10, 11, 12};
        void *b[3][2] = {{&dout, &k[0]}, {&dout, &k[1]}, {&dout, &k[2]}};
        for (int i = 0; i < 3; i++)
            expect_eq("switch body", i, true,
                      add_kernel(body[i], NULL, (void *)put, b[i]) != NULL);
        cudaGraphExec_t x;
        CHECK(cudaGraphInstantiate(&x, g, 0));
        for (int v = 0; v < 4; v++) {
            if (run(x, dv, v, dout, &out))
                return 1;
            expect_eq("switch", v, v < 3 ? 10 + v : -1, out);
        }
        CHECK(cudaGraphExecDestroy(x));
        CHECK(cudaGraphDestroy(g));
    }

    // what cudaGraphAddNode refuses: a value that is no handle, a while
    // node with two bodies
    {
        cudaGraph_t g;
        cudaGraphConditionalHandle h;
        cudaGraphNode_t n;
        CHECK(cudaGraphCreate(&g, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
        cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
        p.conditional.handle = h;
        p.conditional.type = cudaGraphCondTypeWhile;
        p.conditional.size = 2;
        expect_eq("while of 2", 0, (int)cudaErrorInvalidValue,
                  (int)cudaGraphAddNode(&n, g, NULL, NULL, 0, &p));
        cudaGetLastError();
        CHECK(cudaGraphDestroy(g));
    }
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dcount));
    DONE("graph_conditional");
}
