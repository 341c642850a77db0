// BatchExecuteStatement on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// Needs software.amazon.awssdk:dynamodb (the AWS SDK for Java v2) on the class path.
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

public class DynamoDbRequest {
    public static void main(String[] args) throws InterruptedException {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .region(Region.of("eu-west-1"))
                .credentialsProvider(ProfileCredentialsProvider.create("dev"))
                .endpointOverride(URI.create("http://127.0.0.1:8000"))
                .build()) {
            BatchExecuteStatementRequest request = BatchExecuteStatementRequest.builder()
                .statements(List.of(
                    BatchStatementRequest.builder()
                        .statement("UPDATE \"Codegen\" SET w = ? WHERE pk = ? AND sk = ?")
                        .parameters(List.of(
                            AttributeValue.builder().n("1E-130").build(),
                            AttributeValue.builder().s("p#1").build(),
                            AttributeValue.builder().n("1").build()
                        ))
                        .build(),
                    BatchStatementRequest.builder()
                        .statement("INSERT INTO \"Codegen.Other-2\" VALUE {'id': ?, 'v': ?}")
                        .parameters(List.of(
                            AttributeValue.builder()
                                .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==")))
                                .build(),
                            AttributeValue.builder()
                                .ss(List.of(
                                    "a",
                                    "q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f"
                                ))
                                .build()
                        ))
                        .returnValuesOnConditionCheckFailure("NONE")
                        .build()
                ))
                .returnConsumedCapacity("INDEXES")
                .build();
            BatchExecuteStatementResponse response = client.batchExecuteStatement(request);
            System.out.println(response);
        }
    }
}
