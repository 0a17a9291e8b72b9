// expect-hazard: race: global write at hz_b_flag_nofence.cu:11 ... and global read at hz_b_flag_nofence.cu:13 ... no synchronization orders them || race: global read at hz_b_flag_nofence.cu:13 ... and global write at hz_b_flag_nofence.cu:11 ... no synchronization orders them
// expect-hazard: race: global write at hz_b_flag_nofence.cu:10 ... and global read at hz_b_flag_nofence.cu:13 ... no synchronization orders them || race: global read at hz_b_flag_nofence.cu:13 ... and global write at hz_b_flag_nofence.cu:10 ... no synchronization orders them
//
// Block 0 publishes a value and raises a flag with plain stores; block 1
// reads the flag and the value once each, with plain loads.  Nothing
// orders the two blocks: both the flag and the value race.
__global__ void publish(int *data, int *flag, int *seen)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        data[0] = 42;
        flag[0] = 1;
    } else if (blockIdx.x == 1 && threadIdx.x == 0) {
        int f = flag[0], d = data[0];
        seen[0] = f ? d : -1;
    }
}
int main()
{
    int *data, *flag, *seen;
    cudaMalloc(&data, sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&seen, sizeof(int));
    cudaMemset(data, 0, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    publish<<<2, 32>>>(data, flag, seen);
    return cudaDeviceSynchronize() != cudaSuccess;
}
